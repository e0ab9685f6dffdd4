import TickFormat

// The changes of whole lists through TaskFolder: a new list, a rename, a removal, and the
// front matter keys of a list, each one journalled change.

extension TaskFolder {
    /// Applies a change to a list file; returns the path of the list it leaves (the new one for a
    /// rename, the old one for a removal).
    @discardableResult
    public func change(_ change: ListChange) throws -> String {
        switch change {
        case .create(let name, let fields):
            let (name, file, content) = try TaskFolder.newList(name, fields: fields)
            try refuseCollision(file, name: name, except: nil)
            try writeFiles("created the list \(name)", [(file, { bytes in
                guard bytes == nil else { throw MutationError.listExists(name: name, path: file) }
                return .write(content)
            })])
            return file

        case .rename(let index, let newName):
            let name = try ListNaming.validated(newName)
            let fileName = try ListNaming.fileName(for: name)
            let list = library.lists[index]
            try refuseLink(list, doing: "rename")
            let parent = String(Path.parent(of: "/" + list.file.path).dropFirst())
            let path = parent.isEmpty ? fileName : parent + "/" + fileName
            let old = list.file.path
            if path != old { try refuseCollision(path, name: name, except: old) }
            let loadedBytes = try document(at: old).serialize()
            let renamed = try ListText.renamed(loadedBytes, to: name)
            let summary = "renamed the list \(list.name) to \(name)"
            if path == old {
                try writeFiles(summary, [(old, { bytes in
                    guard let bytes else { throw MutationError.listGone(path: old) }
                    return .write(try ListText.renamed(bytes, to: name))
                })])
            } else {
                // The new file first, then the old one goes: a crash in between leaves both, never neither.
                renamedList = [old: path]
                defer { renamedList = [:] }
                try writeFiles(summary, [
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
            return path

        case .restyle(let index, let fields):
            let list = library.lists[index]
            let path = list.file.path
            let pairs = fields.map { (key: $0.key, value: $0.value) }
            try writeFiles("set " + fields.map(\.key).joined(separator: " and ") + " of the list \(list.name)", [(path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                return .write(try ListText.settingFields(bytes, pairs))
            })])
            return path

        case .remove(let index, let force):
            let list = library.lists[index]
            try refuseLink(list, doing: "delete")
            if !force, list.openCount > 0 { throw MutationError.openTasks(list: list.name, count: list.openCount) }
            let path = list.file.path
            try writeFiles("deleted the list \(list.name)", [(path, { bytes in
                guard let bytes else { throw MutationError.listGone(path: path) }
                let open = self.folder.document(bytes).tasks.filter { !$0.done }.count
                if !force, open > 0 { throw MutationError.openTasks(list: list.name, count: open) }
                return .delete
            })])
            return path
        }
    }

    /// A new list's name (trimmed), file name and first bytes; throws for a name or field that
    /// cannot be written. Callers may check this before creating the folder.
    public static func newList(_ name: String, fields: [ListField]) throws -> (name: String, path: String, bytes: [UInt8]) {
        let name = try ListNaming.validated(name)
        let file = try ListNaming.fileName(for: name)
        return (name, file, try ListText.new(name: name, fields: fields.compactMap { f in f.value.map { (f.key, $0) } }))
    }

    /// Refuses a list file name that an existing list or file already has, ignoring case.
    func refuseCollision(_ path: String, name: String, except: String?) throws {
        let wanted = path.lowercased()
        if let taken = library.lists.first(where: { $0.file.path.lowercased() == wanted && $0.file.path != except }) {
            throw MutationError.listExists(name: name, path: taken.file.path)
        }
        let parent = Path.parent(of: folder.absolute(path))
        let names = (try? folder.fileSystem.contents(ofDirectory: parent)) ?? []
        let exceptName = except.map { Path.name(of: $0) }
        if let taken = names.first(where: { $0.lowercased() == Path.name(of: wanted) && $0 != exceptName }) {
            throw MutationError.listExists(name: name, path: folder.display(Path.join(parent, taken)))
        }
    }

    /// Refuses to rename or delete a list that is a symbolic link (tick would change its target).
    func refuseLink(_ list: TaskList, doing: String) throws {
        if try folder.fileSystem.status(list.file.absolutePath, followSymlinks: false)?.kind == .symlink {
            throw MutationError.symbolicLink(path: list.file.path, doing: doing)
        }
    }
}
