import TickFormat

/// What `tick check` finds in one list file's bytes: its format problems (the parser's and the
/// second look's), and whether it reads
/// back byte for byte.
public struct ListFileCheck: Sendable {
    public let diagnostics: [Diagnostic]
    /// The format problems as `tick check` prints them: line, column (1-based) and message.
    public var problems: [(line: Int, column: Int, message: String)] {
        diagnostics.map { ($0.line, $0.column, $0.message) }
    }
    /// The offset of the first byte that does not read back as itself, or nil when all do.
    public let firstDifference: Int?
    /// The `id:` of each task that has one, with the task's line and the token's column (1-based),
    /// for the duplicates across files that `tick check` reports.
    public let ids: [(id: String, line: Int, column: Int)]

    /// With `globalFilter`, the file is read as the folder reads it (FORMAT.md 11): a checkbox line
    /// without the filter is no task, so it has nothing to report.
    public init(_ bytes: [UInt8], globalFilter: GlobalFilter? = nil) {
        let document = Document(bytes: bytes, globalFilter: globalFilter, forCheck: true)
        diagnostics = document.checkDiagnostics()
        let written = document.serialize()
        ids = document.tasks.compactMap { task in
            guard let id = task.id else { return nil }
            let text = Array(document.lineText(task.line).utf8), token = Array("id:\(id)".utf8)
            let offset = text.indices.first { text[$0...].starts(with: token) } ?? 0
            return (id, task.line, offset + 1)
        }
        firstDifference = written == bytes ? nil
            : zip(written, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, bytes.count)
    }
}
