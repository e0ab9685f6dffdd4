import TickFormat

/// What `tick check` finds in one list file's bytes: its format problems (the parser's and the
/// second look's), and whether it reads
/// back byte for byte.
public struct ListFileCheck: Sendable {
    public let diagnostics: [Diagnostic]
    /// The offset of the first byte that does not read back as itself, or nil when all do.
    public let firstDifference: Int?

    public init(_ bytes: [UInt8]) {
        let document = Document(bytes: bytes)
        diagnostics = document.checkDiagnostics()
        let written = document.serialize()
        firstDifference = written == bytes ? nil
            : zip(written, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, bytes.count)
    }
}
