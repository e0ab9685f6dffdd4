import TickCore

// The task folder as the editor shows it: each list open in the editor read from its buffer (its
// unsaved text), the others as saved. Tags, workspace symbols, `tick.today` and `tick.pick` ask this.

/// The folder's lists that are not open in the editor, as saved, and the lists that are.
struct SavedLists {
    var library: Library
    /// The lists of the folder open in the editor, each with its document's URI.
    var open: [(file: ListFile, uri: String)]
}

extension LanguageServer {
    /// The task folder of `path`: the closest folder holding `.tick/` at or above it, else the path
    /// itself (a workspace root) or its folder (a file).
    func taskFolder(holding path: String, isFolder: Bool) -> Folder? {
        guard path.hasPrefix("/") else { return nil }
        let start = isFolder ? path : Path.parent(of: path)
        var location = FolderLocation(path: start, source: .ancestor, exists: true)
        if let found = try? FolderLocation.locate(option: nil, environment: [:], currentDirectory: start, fileSystem: env.fileSystem),
           found.source == .ancestor {
            location = found
        }
        var folder = Folder(location: location, fileSystem: env.fileSystem)
        folder.globalFilter = env.settings.globalFilter
        return folder
    }

    /// The folder's lists not open in the editor, as saved. An open list's file is not read: its
    /// buffer stands for it. The cache that reads keep is used, and written only when no list is
    /// open (a cache of some lists would make the next command read the others again).
    func savedFolder() -> SavedLists? {
        if let savedLists { return savedLists }
        guard let folder else { return nil }
        var uriOfPath: [String: String] = [:]
        for uri in documents.keys {
            if let path = filePath(fromURI: uri) { uriOfPath[path] = uri }
        }
        var scan = folder.scan()
        let open = scan.lists.compactMap { file in uriOfPath[folder.absolute(file.path)].map { (file: file, uri: $0) } }
        if !open.isEmpty {
            let openPaths = Set(open.map(\.file.path))
            scan.lists.removeAll { openPaths.contains($0.path) }
        }
        let library = folder.load(saveCache: open.isEmpty, environment: env.environment, scan: scan, partSize: ListBuffer.partSize).library
        savedLists = SavedLists(library: library, open: open)
        return savedLists
    }

    /// The folder's lists, each open one read from its buffer, the others as saved.
    func library() -> Library? {
        if let workspaceLibrary { return workspaceLibrary }
        guard let saved = savedFolder() else { return nil }
        let buffers = saved.open.compactMap { entry in documents[entry.uri].map { (file: entry.file, buffer: $0.buffer) } }
        workspaceLibrary = saved.library.replacing(buffers)
        return workspaceLibrary
    }

    /// The `id:` values taken in the folder: in its saved lists and in every open buffer.
    func takenIDs() -> Set<String> {
        if savedIDs == nil, let saved = savedFolder() {
            savedIDs = Set(saved.library.ids.compactMap { saved.library.task($0).id })
        }
        var taken = savedIDs ?? []
        for document in documents.values { taken.formUnion(document.buffer.idValues) }
        return taken
    }

    /// The `file://` URI of a list of the folder.
    func uri(ofList list: TaskList) -> String {
        guard let folder else { return "file://" + list.file.path }
        return fileURI(folder.absolute(list.file.path))
    }
}
