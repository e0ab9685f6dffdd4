/// The lines of a byte buffer, split the way CommonMark splits them: at LF, CRLF or a lone CR.
///
/// Line numbers are 1-based, like cmark's. A final segment after the last line ending is a line
/// only when it is not empty, so `"a\n"` has one line and `"a\nb"` two.
struct Lines: Sendable {
    /// Byte offset where each line starts.
    private(set) var starts: [Int] = []
    /// Byte offset where each line's content ends (its line ending starts).
    private(set) var contentEnds: [Int] = []
    /// Total byte count.
    let byteCount: Int

    init(_ bytes: [UInt8]) {
        byteCount = bytes.count
        var starts: [Int] = [], contentEnds: [Int] = []
        starts.reserveCapacity(bytes.count / 32 + 1)
        contentEnds.reserveCapacity(bytes.count / 32 + 1)
        var start = 0
        let n = bytes.count
        bytes.withUnsafeBufferPointer { p in
            // Line endings are found eight bytes at a time: every list is split into lines.
            var i = CommonMarkConverter.firstIndex(of: 0x0A, or: 0x0D, in: p, from: 0)
            while i < n {
                starts.append(start)
                contentEnds.append(i)
                i += (p[i] == 0x0D && i + 1 < n && p[i + 1] == 0x0A) ? 2 : 1
                start = i
                i = CommonMarkConverter.firstIndex(of: 0x0A, or: 0x0D, in: p, from: i)
            }
        }
        if start < n {
            starts.append(start)
            contentEnds.append(n)
        }
        self.starts = starts
        self.contentEnds = contentEnds
    }

    var count: Int { starts.count }

    /// Offset of the start of line `number` (1-based); `count + 1` gives the end of the buffer.
    func start(_ number: Int) -> Int {
        number <= starts.count ? starts[number - 1] : byteCount
    }

    /// Offset just past the content of line `number` (before its line ending).
    func contentEnd(_ number: Int) -> Int { contentEnds[number - 1] }

    /// Offset just past the line ending of line `number`.
    func end(_ number: Int) -> Int { start(number + 1) }

    /// The 1-based number of the line holding byte `offset`.
    func line(containing offset: Int) -> Int {
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }
}

/// A line ending as it appears in a file.
public enum LineEnding: String, Sendable {
    case lf = "\n"
    case crlf = "\r\n"
    case cr = "\r"

    var bytes: [UInt8] { Array(rawValue.utf8) }
}

extension Lines {
    /// The line ending of line `number`, or nil for a last line without one.
    func ending(_ number: Int, in bytes: [UInt8]) -> LineEnding? {
        let e = contentEnd(number)
        guard e < bytes.count else { return nil }
        if bytes[e] == 0x0A { return .lf }
        return e + 1 < bytes.count && bytes[e + 1] == 0x0A ? .crlf : .cr
    }

    /// The first line ending of the file, which tick uses for lines it writes; LF when there is none.
    func dominantEnding(in bytes: [UInt8]) -> LineEnding {
        for n in stride(from: 1, through: count, by: 1) {
            if let e = ending(n, in: bytes) { return e }
        }
        return .lf
    }
}
