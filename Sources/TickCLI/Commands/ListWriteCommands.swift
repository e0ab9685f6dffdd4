import TickCore

// `tick list new|rename|set|rm`: lists as files.

/// `tick list new NAME [--symbol S] [--color C]`.
@Sendable func runListNew(_ invocation: Invocation) throws -> ExitStatus {
    let fields = try frontMatterFields(invocation).filter { $0.value != nil }
    // Checked before the folder is created.
    let name = try TaskFolder.newList(invocation.value(Commands.newListNameArgument)!, fields: fields).name
    let session = try invocation.openForWriting(create: true)
    let path = try session.folder.change(.create(name: name, fields: fields))
    return try reportList(invocation, session: session, path: path, line: "Created the list \(name) (\(path))")
}

/// `tick list rename OLD NEW`: the heading and the file name.
@Sendable func runListRename(_ invocation: Invocation) throws -> ExitStatus {
    let name = try ListNaming.validated(invocation.value(Commands.newNameArgument)!)
    _ = try ListNaming.fileName(for: name)
    let session = try invocation.openForWriting(create: false)
    let index = try invocation.resolveList(invocation.value(Commands.oldNameArgument)!, in: session.library)
    let list = session.library.lists[index]
    let path = try session.folder.change(.rename(list: index, to: name))
    let moved = path == list.file.path ? "" : ", now \(path)"
    return try reportList(invocation, session: session, path: path, line: "Renamed the list \(list.name) to \(name)\(moved)")
}

/// `tick list set NAME [--symbol S] [--color C]`: front matter keys; an empty value removes one.
@Sendable func runListSet(_ invocation: Invocation) throws -> ExitStatus {
    let fields = try frontMatterFields(invocation)
    guard !fields.isEmpty else { throw UsageError.invalidInput("nothing to set: give --symbol, --color or both") }

    let session = try invocation.openForWriting(create: false)
    let index = try invocation.resolveList(invocation.value(Commands.listNameArgument)!, in: session.library)
    let list = session.library.lists[index]
    let path = try session.folder.change(.restyle(list: index, fields: fields))
    let described = fields.map { "\($0.key) \($0.value ?? "removed")" }.joined(separator: ", ")
    return try reportList(invocation, session: session, path: path, line: "Updated the list \(list.name): \(described)")
}

/// `tick list rm NAME [--force]`: deletes the file, and so every task in it.
@Sendable func runListRemove(_ invocation: Invocation) throws -> ExitStatus {
    let session = try invocation.openForWriting(create: false)
    let index = try invocation.resolveList(invocation.value(Commands.listNameArgument)!, in: session.library)
    let list = session.library.lists[index]
    let path = try session.folder.change(.remove(list: index, force: invocation.flag(Commands.forceListOption)))
    if invocation.global.json {
        invocation.out.json(listObject(list))
    } else {
        invocation.say("Deleted the list \(list.name) (\(path), \(count(list.taskCount, "task")))")
    }
    return session.loaded.status
}

// MARK: - Helpers

/// `--symbol` and `--color` as front matter fields; an empty value removes the key (nil).
private func frontMatterFields(_ invocation: Invocation) throws -> [ListField] {
    var fields: [ListField] = []
    if let symbol = invocation.value(Commands.symbolOption) {
        let value = try ListNaming.validatedSymbol(symbol)
        fields.append(ListField(key: "symbol", value: value.isEmpty ? nil : value))
    }
    if let color = invocation.value(Commands.colorOption) {
        fields.append(ListField(key: "color", value: try ListNaming.colorField(color)))
    }
    return fields
}

/// The list object of `--json`, as the home screen prints it.
func listObject(_ list: TaskList) -> JSON {
    .object([("name", .string(list.name)), ("file", .string(list.file.path)),
             ("symbol", .optional(list.symbol)), ("color", .optional(list.color)),
             ("open", .int(list.openCount)), ("done", .int(list.doneCount))])
}

/// Prints the line (or list object) for a list written at `path`.
private func reportList(_ invocation: Invocation, session: WriteSession, path: String, line: String) throws -> ExitStatus {
    let library = session.library
    if invocation.global.json, let index = library.list(at: path) {
        invocation.out.json(listObject(library.lists[index]))
    } else {
        invocation.say(line)
    }
    return session.loaded.status
}
