import TickCore

// `tick view NAME`, `tick view`, `tick view save NAME QUERY`, `tick view rm NAME`: queries kept under
// a name in the task folder's configuration (`view.NAME = QUERY`).

/// `tick view [NAME]`.
@Sendable func runSavedView(_ invocation: Invocation) throws -> ExitStatus {
    guard let name = invocation.value(Commands.viewNameArgument) else { return try listSavedViews(invocation) }
    guard let saved = invocation.settings.views.first(where: { $0.name == name }) else {
        let names = invocation.settings.views.map(\.name)
        throw CommandFailure(.negative, "no saved view named '\(name)'"
                             + (Suggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? "")
                             + (names.isEmpty ? " (tick view save NAME QUERY saves one)" : ""))
    }
    guard !saved.query.isEmpty else {
        throw UsageError.invalidInput("saved view '\(name)' has no query (a view.\(name) = QUERY line)")
    }
    let query = try invocation.query(saved.query, view: name)
    var sort = try invocation.sortOrder()
    if sort == nil, let text = saved.sort { sort = try? SortOrder(parsing: text) }
    let grouping = (invocation.value(Commands.groupOption) ?? saved.group).flatMap(TaskGrouping.init(rawValue:)) ?? .none
    let loaded = try invocation.load()
    let library = loaded.library
    var ids = library.find(query, now: invocation.now, includeCompleted: invocation.flag(Commands.allOption))
    if let sort { ids = library.sorted(ids, by: sort) }
    invocation.reportProblems(in: library)
    if invocation.global.json {
        invocation.out.jsonArray(ids) { TaskRows.json($0, in: library) }
        return loaded.status(matched: ids.count)
    }
    FoundTasks(library: library, invocation: invocation)
        .write(ids, grouping: grouping, flat: invocation.flag(Commands.flatOption), heading: name)
    if ids.isEmpty { invocation.out.line("  No task matches '\(saved.query)'.") }
    return loaded.status(matched: ids.count)
}

/// `tick view`: every saved view with its query and count.
private func listSavedViews(_ invocation: Invocation) throws -> ExitStatus {
    let views = invocation.settings.views
    let loaded = try invocation.load()
    let counts = savedViewCounts(views, library: loaded.library, invocation: invocation)
    if invocation.global.json {
        invocation.out.jsonArray(Array(views.indices)) { k in
            .object([("name", .string(views[k].name)), ("query", .string(views[k].query)),
                     ("sort", .optional(views[k].sort)), ("group", .optional(views[k].group)),
                     ("count", counts[k].map { .int($0) } ?? .null)])
        }
        return loaded.status
    }
    guard !views.isEmpty else {
        invocation.out.line("No saved views. tick view save NAME QUERY saves one.")
        return loaded.status
    }
    let width = views.map { displayWidth($0.name) }.max() ?? 0
    for (k, view) in views.enumerated() {
        let count = counts[k].map(String.init) ?? "?"
        invocation.out.line("  " + padded(view.name, to: width) + "  " + padded(count, to: 5) + " " + view.query)
    }
    return loaded.status
}

/// How many tasks each saved view finds now; nil for a view whose query is not one (with a warning).
func savedViewCounts(_ views: [SavedView], library: Library, invocation: Invocation) -> [Int?] {
    views.map { view in
        do {
            return library.find(try invocation.query(view.query, view: view.name), now: invocation.now).count
        } catch {
            invocation.warn((error as? UsageError)?.message ?? "saved view '\(view.name)': \(error)")
            return nil
        }
    }
}

/// `tick view save NAME QUERY... [--sort KEYS] [--group GROUP]`.
@Sendable func runSaveView(_ invocation: Invocation) throws -> ExitStatus {
    let name = invocation.value(Commands.newViewNameArgument)!
    guard SavedView.isValidName(name) else {
        throw UsageError.invalidInput("'\(name)' cannot name a view: use lower-case letters, digits and hyphens, "
                                      + "starting with a letter (at most 40)")
    }
    guard !Commands.reservedViewNames.contains(name) else {
        throw UsageError.invalidInput("'\(name)' names a command or a built-in view; choose another name for the view")
    }
    let text = invocation.values(Commands.queryArgument).joined(separator: " ")
    guard !text.contains("\n"), !text.contains("\r") else { throw UsageError.invalidInput("a saved query is one line") }
    _ = try invocation.query(text)
    let sort = try invocation.sortOrder()
    let view = SavedView(name: name, query: text, sort: sort?.description, group: invocation.value(Commands.groupOption))
    let folder = try invocation.folder()
    guard folder.location.exists else {
        throw CommandFailure(.usage, "no task folder at \(folder.path) (tick init makes one)")
    }
    let replaced = try rewriteFolderConfiguration(folder, invocation: invocation, saving: name) {
        SavedView.rewrite($0, name: name, with: view)
    }
    invocation.say((replaced ? "Replaced" : "Saved") + " view \(name): \(text)")
    return .success
}

/// `tick view rm NAME`.
@Sendable func runRemoveView(_ invocation: Invocation) throws -> ExitStatus {
    let name = invocation.value(Commands.viewRemove.arguments[0])!
    let folder = try invocation.folder()
    guard folder.location.exists else { throw CommandFailure(.negative, "no saved view named '\(name)'") }
    let removed = try rewriteFolderConfiguration(folder, invocation: invocation) { SavedView.rewrite($0, name: name, with: nil) }
    guard removed else {
        if invocation.settings.views.contains(where: { $0.name == name }) {
            throw CommandFailure(.negative, "view '\(name)' is kept in the user's configuration (\(invocation.settings.origins["view." + name] ?? "")); tick changes only the task folder's")
        }
        throw CommandFailure(.negative, "no saved view named '\(name)'")
    }
    invocation.say("Deleted view \(name)")
    return .success
}

/// The largest `.tick/config` that `tick view rm` reads to take a view out of it: one past the
/// configuration's limit (written by an older tick) can still be brought back under it.
private let configurationRewriteBound = 16 * Configuration.maxSize

/// Applies `change` to `.tick/config` (written whole to a new file, then renamed over it, mode 0600);
/// returns whether the file had lines for the view (the bytes changed other than by adding). When
/// `saving` a view, a result past the configuration's limit (which every later run would ignore,
/// settings and all) is refused and nothing is written; a removal may shrink a file already past it.
private func rewriteFolderConfiguration(_ folder: Folder, invocation: Invocation, saving: String? = nil,
                                        _ change: ([UInt8]) -> [UInt8]) throws -> Bool {
    let fileSystem = invocation.fileSystem
    let path = Configuration.folderFile(in: folder.path)
    let status = try fileSystem.status(path, followSymlinks: false)
    if let status, status.kind != .file {
        throw CommandFailure(.usage, "\(path) is not a regular file; tick does not change it")
    }
    let bound = saving == nil ? configurationRewriteBound : Configuration.maxSize
    let tooLarge = "\(path) is larger than \(bound / 1024) KiB; tick does not change it"
    guard (status?.size ?? 0) <= bound else { throw CommandFailure(.usage, tooLarge) }
    let before = try fileSystem.readIfPresent(path, followSymlinks: false) ?? []
    guard before.count <= bound else { throw CommandFailure(.usage, tooLarge) }
    let after = change(before)
    if let saving, after.count > Configuration.maxSize {
        throw CommandFailure(.usage, "cannot save view '\(saving)': \(path) would be \(after.count) bytes, over its "
                             + "limit of \(Configuration.maxSize / 1024) KiB (\(Configuration.maxSize) bytes); nothing was written")
    }
    let removedOnly = change([])
    // The view had lines when taking them out and putting the new ones in changed what was there.
    let hadLines = SavedViewLines.had(before: before, after: after, added: removedOnly)
    guard after != before else { return hadLines }
    let temporary = path + ".new"
    try? fileSystem.removeFile(temporary)
    try fileSystem.createFile(temporary, contents: after, mode: 0o600, sync: true)
    do {
        try fileSystem.rename(temporary, to: path)
    } catch {
        try? fileSystem.removeFile(temporary)
        throw error
    }
    return hadLines
}

/// Whether a rewrite replaced or removed lines rather than only adding them.
private enum SavedViewLines {
    static func had(before: [UInt8], after: [UInt8], added: [UInt8]) -> Bool {
        // Only adding: the result is the old bytes (with a line feed put after an unfinished last
        // line), followed by the new lines.
        var base = before
        if let last = base.last, last != 0x0A, !added.isEmpty { base.append(0x0A) }
        return after != base + added
    }
}

// MARK: - Home

/// The saved views' tiles of the home screen, two to a line, and the `views` key of its JSON.
enum SavedViewTiles {
    static func json(_ invocation: Invocation, library: Library) -> JSON {
        let views = invocation.settings.views
        let counts = savedViewCounts(views, library: library, invocation: invocation)
        return .array(views.indices.map { k in
            .object([("name", .string(views[k].name)), ("query", .string(views[k].query)),
                     ("count", counts[k].map { .int($0) } ?? .null)])
        })
    }

    static func lines(_ invocation: Invocation, library: Library) -> [String] {
        let views = invocation.settings.views
        guard !views.isEmpty else { return [] }
        let counts = savedViewCounts(views, library: library, invocation: invocation)
        return tileLines(views.indices.map { (views[$0].name, counts[$0].map(String.init) ?? "?") }, terminal: invocation.terminal)
    }
}
