import TickFormat

// The folder as an editor shows it: the lists open in it read from their buffers (their unsaved
// text), the others as saved. The language server's tags, workspace symbols and views ask this.

extension Library {
    /// This library with each list of `buffers` read from its buffer instead of its file: a list
    /// the library holds is replaced, one it does not hold is added (a buffer's list not yet
    /// written); the lists stay in path order, byte by byte. Refs are those of the text in view.
    public func replacing(_ buffers: [(file: ListFile, buffer: ListBuffer)]) -> Library {
        guard !buffers.isEmpty else { return self }
        var byPath: [String: (file: ListFile, buffer: ListBuffer)] = [:]
        for entry in buffers { byPath[entry.file.path] = entry }
        // The lists kept point into this library's storage: the new storage holds on to it.
        let kept = storage
        let storage = SegmentStorage(release: { withExtendedLifetime(kept) {} })
        var entries: [(file: ListFile, segment: Segment)] = lists.filter { byPath[$0.file.path] == nil }.map { ($0.file, $0.segment) }
        for (path, entry) in byPath {
            entries.append((entry.file, storage.adopt(Segment.built(entry.buffer.document, path: path))))
        }
        let order = Path.byteOrder(entries.map(\.file.path))
        return Library.assemble(files: order.map { entries[$0].file }, segments: order.map { entries[$0].segment },
                                storage: storage, retired: retired)
    }
}

extension ListBuffer {
    /// The `id:` values of its tasks, in line order.
    public var idValues: [String] { ids.map(\.id) }

    /// The title of task `i` of `bytes` read as this buffer's text is read (a saved file's), or nil
    /// when it has no such task. Parsed in parts, and not checked.
    public func title(ofTask i: Int, in bytes: [UInt8]) -> String? {
        let document = Document(bytes: bytes, globalFilter: globalFilter, forCheck: false, partSize: ListBuffer.partSize)
        return document.tasks.indices.contains(i) ? document.tasks[i].title : nil
    }
}
