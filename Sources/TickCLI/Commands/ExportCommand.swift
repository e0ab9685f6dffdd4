import TickCore

/// `tick export FORMAT [-o FILE] [--list L]`: the folder's tasks in another program's format.
///
/// Each format is a subcommand, with its own options and help; they share `-o FILE` and `--list L`,
/// choose their tasks with `exportScope` and write with `writeExport`. A new format adds its
/// `Command` to `exportFormats`.
extension Commands {
    static let exportOutputOption = ValueOption(
        "output", short: "o", valueName: "FILE",
        help: "Write to FILE instead of standard output: a new file, or one replaced whole and atomically "
            + "(a new file is readable by you alone; a replaced one keeps its permissions; a link's target "
            + "is replaced, the link staying); a device, FIFO or pipe is written in place")
    static let exportListOption = ValueOption(
        "list", short: "l", valueName: "LIST",
        help: "Only the list LIST: its name or file name (a unique prefix is enough) or its path")

    static let exportFormats: [Command] = [exportJSON, exportICS, exportVdir, exportTodoTxt, exportTaskwarrior]

    static let export: Command = Command(
        name: "export",
        effect: .read,
        summary: "Write the tasks in another program's format",
        discussion: "Reads the lists and writes their tasks in FORMAT to standard output, or with -o FILE to "
            + "that file, which may be outside the task folder since you named it. tick changes no list, and "
            + "refuses a FILE ending in .md inside the task folder, which would be a list.",
        subcommands: exportFormats, subcommandsAreFormats: true)

    static let exportJSON: Command = Command(
        name: "json",
        effect: .read,
        summary: "Every task, open and completed, as JSON",
        discussion: "An array of task objects (the same objects as every --json output, described in the "
            + "README), in folder order: the lists in the home screen's order, and each list's tasks in "
            + "the file's order.",
        options: [exportOutputOption, exportListOption],
        run: runExportJSON)
}

/// `tick export json`.
@Sendable func runExportJSON(_ invocation: Invocation) throws -> ExitStatus {
    let loaded = try invocation.load()
    let library = loaded.library
    let lists = try invocation.exportScope(in: library)
    var text = ""
    var first = true
    for list in lists {
        for index in 0..<library.lists[list].taskCount {
            text += first ? "[\n" : ",\n"
            first = false
            TaskRows.json(TaskID(list: list, index: index), in: library).render(into: &text)
        }
    }
    text += first ? "[]\n" : "\n]\n"
    try invocation.writeExport(Array(text.utf8), loaded: loaded)
    return loaded.status
}

extension Invocation {
    /// The lists an export covers, in the home screen's order: every list, or the one `--list` names.
    func exportScope(in library: Library) throws -> [Int] {
        if let name = value(Commands.exportListOption) { return [try resolveList(name, in: library)] }
        return Array(library.lists.indices)
    }

    /// Writes an export to standard output, or through `-o` to what is there (`writeExportFile`).
    func writeExport(_ bytes: [UInt8], loaded: LoadedFolder) throws {
        guard let name = value(Commands.exportOutputOption) else {
            out.write(bytes: bytes)
            return
        }
        try writeExportFile(bytes, to: name, folder: loaded.folder)
    }

    /// Writes `bytes` to `name` (relative to the working folder), through to what is there: a regular
    /// file, or none, is replaced atomically (written beside it under a hidden name, then renamed over
    /// it, so that a reader sees the old file or the new one, never a part); a symbolic link to a
    /// regular file has its target replaced so, the link staying; a device, a FIFO, a socket or a pipe
    /// (`/dev/stdout`) is written in place, never replaced. A folder is refused.
    func writeExportFile(_ bytes: [UInt8], to name: String, folder: Folder) throws {
        let option = "-o"
        func refuse(_ reason: String) -> UsageError { .invalidValue(option: option, value: name, reason: reason) }
        guard !name.isEmpty else { throw refuse("it is empty") }
        let path = Path.absolute(name, from: context.currentDirectory)
        guard fileSystem.isDirectory(Path.parent(of: path)) else { throw refuse("its folder does not exist") }
        // A .md name inside the task folder is a list, and so is a link's target there: by real paths,
        // so that neither a link to the task folder nor a link into it hides one.
        let realFolder = (try? fileSystem.resolvedPath(folder.path)) ?? folder.path
        func isList(_ path: String) -> Bool {
            let parent = Path.parent(of: path)
            let realParent = (try? fileSystem.resolvedPath(parent)) ?? parent
            return Path.name(of: path).lowercased().hasSuffix(".md")
                && (realParent == realFolder || realParent.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/"))
        }
        let listRefusal = "a .md file inside the task folder is a list; write the export elsewhere"
        guard !isList(path) else { throw refuse(listRefusal) }
        var target = path
        switch try fileSystem.status(path, followSymlinks: false)?.kind {
        case .directory?:
            throw refuse("it is a folder")
        case .symlink?:
            switch try fileSystem.status(path, followSymlinks: true)?.kind {
            case nil: throw refuse("it is a symbolic link to nothing")
            case .directory?: throw refuse("it is a link to a folder")
            case .file?: target = try fileSystem.resolvedPath(path)
            case .symlink?, .other?: return try fileSystem.writeInPlace(path, contents: bytes)
            }
            guard !isList(target) else { throw refuse(listRefusal) }
        case .other?:
            return try fileSystem.writeInPlace(path, contents: bytes)
        case .file?, nil:
            break
        }
        try replaceFile(target, in: Path.parent(of: target), with: bytes)
    }

    /// Replaces the regular file at `path` (or creates it, mode 0600) atomically, keeping its mode.
    private func replaceFile(_ path: String, in parent: String, with bytes: [UInt8]) throws {
        let existing = try fileSystem.status(path, followSymlinks: false)
        let mode: UInt32 = existing.flatMap { $0.kind == .file ? $0.mode : nil } ?? 0o600
        let staging = Path.join(parent, ".\(Path.name(of: path)).tick-export")
        if try fileSystem.status(staging, followSymlinks: false) != nil { try fileSystem.removeFile(staging) }
        do {
            try fileSystem.createFile(staging, contents: bytes, mode: mode, sync: true)
            try fileSystem.rename(staging, to: path)
        } catch {
            try? fileSystem.removeFile(staging)
            throw error
        }
    }
}
