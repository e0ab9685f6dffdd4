import TickCore

// `tick list new|rename|set|rm`: lists as files.

/// `tick list new NAME [--symbol S] [--color C]`.
@Sendable func runListNew(_ invocation: Invocation) throws -> ExitStatus {
    let name = try ListNaming.validated(invocation.value("NAME")!)
    let file = try ListNaming.fileName(for: name)
    let fields = try frontMatterFields(invocation).compactMap { field in field.value.map { (key: field.key, value: $0) } }
    let content = try ListText.new(name: name, fields: fields)

    let session = try invocation.openForWriting(create: true)
    try refuseCollision(file, name: name, in: session, except: nil, invocation: invocation)
    let mutator = try session.writing()
    try mutator.changeFiles(summary: "created the list \(name)", [(file, { bytes in
        guard bytes == nil else { throw MutationError.listExists(name: name, path: file) }
        return .write(content)
    })])
    return try reportList(invocation, session: session, path: file, line: "Created the list \(name) (\(file))")
}

/// `tick list rename OLD NEW`: the heading and the file name.
@Sendable func runListRename(_ invocation: Invocation) throws -> ExitStatus {
    let name = try ListNaming.validated(invocation.value("NEW")!)
    let fileName = try ListNaming.fileName(for: name)

    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let list = before.lists[try invocation.resolveList(invocation.value("OLD")!, in: before)]
    try refuseLink(list, invocation: invocation, doing: "rename")
    let folder = String(Path.parent(of: "/" + list.file.path).dropFirst())
    let path = folder.isEmpty ? fileName : folder + "/" + fileName
    let old = list.file.path
    if path != old { try refuseCollision(path, name: name, in: session, except: old, invocation: invocation) }
    let mutator = try session.writing()
    let loadedBytes = try mutator.document(at: old).serialize()
    let renamed = try ListText.renamed(loadedBytes, to: name)
    let summary = "renamed the list \(list.name) to \(name)"
    if path == old {
        try mutator.changeFiles(summary: summary, [(old, { bytes in
            guard let bytes else { throw MutationError.listGone(path: old) }
            return .write(try ListText.renamed(bytes, to: name))
        })])
    } else {
        // The new file first, then the old one goes: a crash in between leaves both, never neither.
        try mutator.changeFiles(summary: summary, [
            (path, { bytes in
                guard bytes == nil else { throw MutationError.listExists(name: name, path: path) }
                return .write(renamed)
            }),
            (old, { bytes in
                guard let bytes else { throw MutationError.listGone(path: old) }
                guard bytes == loadedBytes else { throw StorageError.changedMeanwhile(path: old) }
                return .delete
            }),
        ])
    }
    let moved = path == old ? "" : ", now \(path)"
    return try reportList(invocation, session: session, path: path, line: "Renamed the list \(list.name) to \(name)\(moved)")
}

/// `tick list set NAME [--symbol S] [--color C]`: front matter keys; an empty value removes one.
@Sendable func runListSet(_ invocation: Invocation) throws -> ExitStatus {
    let fields = try frontMatterFields(invocation)
    guard !fields.isEmpty else { throw UsageError.invalidInput("nothing to set: give --symbol, --color or both") }

    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let list = before.lists[try invocation.resolveList(invocation.value("NAME")!, in: before)]
    let path = list.file.path
    try session.writing().changeFiles(summary: "set " + fields.map(\.key).joined(separator: " and ") + " of the list \(list.name)",
                                      [(path, { bytes in
        guard let bytes else { throw MutationError.listGone(path: path) }
        return .write(try ListText.settingFields(bytes, fields))
    })])
    let described = fields.map { "\($0.key) \($0.value ?? "removed")" }.joined(separator: ", ")
    return try reportList(invocation, session: session, path: path, line: "Updated the list \(list.name): \(described)")
}

/// `tick list rm NAME [--force]`: deletes the file, and so every task in it.
@Sendable func runListRemove(_ invocation: Invocation) throws -> ExitStatus {
    let force = invocation.flag("force")
    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let list = before.lists[try invocation.resolveList(invocation.value("NAME")!, in: before)]
    try refuseLink(list, invocation: invocation, doing: "delete")
    if !force, list.openCount > 0 { throw MutationError.openTasks(list: list.name, count: list.openCount) }
    let path = list.file.path
    try session.writing().changeFiles(summary: "deleted the list \(list.name)", [(path, { bytes in
        guard let bytes else { throw MutationError.listGone(path: path) }
        let open = Document(bytes: bytes).tasks.filter { !$0.done }.count
        if !force, open > 0 { throw MutationError.openTasks(list: list.name, count: open) }
        return .delete
    })])
    let count = list.taskCount
    if invocation.global.json {
        invocation.out.json(listObject(list))
    } else {
        invocation.say("Deleted the list \(list.name) (\(path), \(count) task\(count == 1 ? "" : "s"))")
    }
    return session.loaded.status
}

// MARK: - Helpers

/// `--symbol` and `--color` as front matter fields; an empty value removes the key (nil).
private func frontMatterFields(_ invocation: Invocation) throws -> [(key: String, value: String?)] {
    var fields: [(key: String, value: String?)] = []
    if let symbol = invocation.value("symbol") {
        let value = try ListNaming.validatedSymbol(symbol)
        fields.append(("symbol", value.isEmpty ? nil : value))
    }
    if let color = invocation.value("color") {
        fields.append(("color", color.trimmingSpaces().isEmpty ? nil : try ListNaming.validatedColor(color.trimmingSpaces())))
    }
    return fields
}

/// Refuses a list file name that an existing list or file already has, ignoring case.
private func refuseCollision(_ path: String, name: String, in session: WriteSession, except: String?,
                             invocation: Invocation) throws {
    let wanted = path.lowercased()
    if let taken = session.library.lists.first(where: { $0.file.path.lowercased() == wanted && $0.file.path != except }) {
        throw MutationError.listExists(name: name, path: taken.file.path)
    }
    let folder = session.loaded.folder
    let parent = Path.parent(of: folder.absolute(path))
    let names = (try? invocation.fileSystem.contents(ofDirectory: parent)) ?? []
    let exceptName = except.map { Path.name(of: $0) }
    if let taken = names.first(where: { $0.lowercased() == Path.name(of: wanted) && $0 != exceptName }) {
        throw MutationError.listExists(name: name, path: folder.display(Path.join(parent, taken)))
    }
}

/// Refuses to rename or delete a list that is a symbolic link (tick would change its target).
private func refuseLink(_ list: TaskList, invocation: Invocation, doing: String) throws {
    if try invocation.fileSystem.status(list.file.absolutePath, followSymlinks: false)?.kind == .symlink {
        throw UsageError.invalidInput("\(list.file.path) is a symbolic link; \(doing) it by hand")
    }
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
