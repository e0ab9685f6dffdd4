import TickFormat

// The top-level tasks of a buffer whose lines read alone exactly as they read in the whole list,
// so that a change inside one is checked, and a task edit made, on those lines alone.
//
// Such a task starts its line with a bullet (`-`, `*`, `+`: outside any block quote, code block or
// other list item, and able to interrupt a paragraph above it), owns every line up to the next
// one, and is followed by the end of the text, another bullet line or an ATX heading: lines that
// start a block of their own, so nothing after the task can become part of it. Its problems are
// then those of its lines parsed alone (a line past the first, so no byte order mark or front
// matter is involved), and an edit of it changes only its lines.

extension ListBuffer {
    static func lineStarts(of bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { b in
            var starts = [0]
            var i = 0
            while i < b.count {
                let c = b[i]
                i += 1
                if c == 10 {
                    if i < b.count { starts.append(i) }
                } else if c == 13 {
                    if i < b.count, b[i] == 10 { i += 1 }
                    if i < b.count { starts.append(i) }
                }
            }
            return starts
        }
    }

    /// Whether line `line` (1-based) of `bytes` holds only spaces and tabs.
    static func isBlank(_ bytes: [UInt8], line: Int, starts: [Int]) -> Bool {
        let end = line < starts.count ? starts[line] : bytes.count
        return bytes[starts[line - 1]..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 10 || $0 == 13 }
    }

    /// The offset just past line `n` (1-based) and its line ending.
    func end(ofLine n: Int) -> Int { n < lineStarts.count ? lineStarts[n] : bytes.count }

    /// Whether `bytes` holds a bullet, a space or tab, and `[` at `offset`.
    static func startsBulletTask(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + 2 < bytes.count else { return false }
        let c = bytes[offset]
        guard c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") else { return false }
        var i = offset + 1
        guard bytes[i] == 0x20 || bytes[i] == 0x09 else { return false }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "[")
    }

    /// Whether the line at `offset` cannot join a list item above it: the end of the text, a bullet
    /// and a space or tab, or an ATX heading.
    static func startsOwnBlock(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset < bytes.count else { return true }
        let c = bytes[offset]
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") {
            return offset + 1 < bytes.count && (bytes[offset + 1] == 0x20 || bytes[offset + 1] == 0x09)
        }
        guard c == UInt8(ascii: "#") else { return false }
        var i = offset
        while i < bytes.count, bytes[i] == UInt8(ascii: "#"), i - offset < 7 { i += 1 }
        guard i - offset <= 6 else { return false }
        return i == bytes.count || bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 10 || bytes[i] == 13
    }

    /// The lines of task `i` of `document` (this buffer's text parsed whole) when it is such a task.
    func sliceable(_ i: Int, in document: Document) -> ClosedRange<Int>? {
        let task = document.tasks[i]
        guard task.depth == 0, task.line > 1 else { return nil }
        let lines = document.lineRange(of: i)
        guard lines.lowerBound == task.line, ListBuffer.startsBulletTask(bytes, at: lineStarts[task.line - 1]),
              document.descendants(of: i).upperBound == (i + 1..<document.tasks.count).first(where: { document.tasks[$0].depth == 0 }) ?? document.tasks.count,
              ListBuffer.startsOwnBlock(bytes, at: end(ofLine: lines.upperBound))
        else { return nil }
        return lines
    }

    /// The slice holding task `i`, and the index of its first task.
    func slice(holding i: Int) -> (lines: ClosedRange<Int>, first: Int)? {
        let line = document.tasks[i].line
        var low = 0, high = slices.count
        while low < high {
            let mid = (low + high) / 2
            if slices[mid].upperBound < line { low = mid + 1 } else { high = mid }
        }
        guard low < slices.count, slices[low].contains(line), let first = task(onLine: slices[low].lowerBound),
              first <= i, document.tasks[first].depth == 0 else { return nil }
        return (slices[low], first)
    }

    /// The buffer after the bytes of `range` are replaced by `replacement`: checked again on the
    /// lines of the one task the change falls in when it is such a task before and after, else whole.
    public func replacing(_ range: Range<Int>, with replacement: [UInt8]) -> ListBuffer {
        var newBytes = bytes
        newBytes.replaceSubrange(range, with: replacement)
        var low = 0, high = slices.count
        while low < high {
            let mid = (low + high) / 2
            if end(ofLine: slices[mid].upperBound) <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        guard low < slices.count, case let slice = slices[low], slice.lowerBound > frontMatterEnd,
              lineStarts[slice.lowerBound - 1] <= range.lowerBound,
              range.upperBound < end(ofLine: slice.upperBound)
        else { return ListBuffer(bytes: newBytes, globalFilter: globalFilter) }
        let delta = replacement.count - range.count
        let start = lineStarts[slice.lowerBound - 1], newEnd = end(ofLine: slice.upperBound) + delta
        let part = Array(newBytes[start..<newEnd])
        let partStarts = ListBuffer.lineStarts(of: part)
        let document = Document(bytes: part, globalFilter: globalFilter, forCheck: true)
        guard ListBuffer.startsBulletTask(part, at: 0), !document.tasks.isEmpty, document.tasks[0].line == 1,
              document.lineRange(of: 0).lowerBound == 1, document.descendants(of: 0).upperBound == document.tasks.count,
              // Blank lines after the task are its own only before the next task (the next slice).
              document.lineRange(of: 0).upperBound == partStarts.count
                || (low + 1 < slices.count && slices[low + 1].lowerBound == slice.upperBound + 1
                    && (document.lineRange(of: 0).upperBound..<partStarts.count).allSatisfy({ ListBuffer.isBlank(part, line: $0 + 1, starts: partStarts) })),
              ListBuffer.startsOwnBlock(newBytes, at: newEnd), document.frontMatter == nil, document.unrecognizedFrontMatter == nil
        else { return ListBuffer(bytes: newBytes, globalFilter: globalFilter) }

        let before = slice.lowerBound - 1, lineDelta = partStarts.count - slice.count
        var starts = Array(lineStarts[..<before])
        starts += partStarts.map { $0 + start }
        starts += lineStarts[slice.upperBound...].map { $0 + delta }
        let inside = document.checkDiagnostics().map { Problem(line: $0.line + before, column: $0.column, message: $0.message) }
        let found = self.found.filter { $0.line < slice.lowerBound } + inside
            + self.found.filter { $0.line > slice.upperBound }.map { Problem(line: $0.line + lineDelta, column: $0.column, message: $0.message) }
        let ids = self.ids.filter { $0.line < slice.lowerBound } + ListBuffer.ids(of: document, lineOffset: before)
            + self.ids.filter { $0.line > slice.upperBound }.map { ($0.line + lineDelta, $0.column, $0.id) }
        var slices = Array(self.slices[..<low])
        slices.append(slice.lowerBound...(slice.upperBound + lineDelta))
        slices += self.slices[(low + 1)...].map { ($0.lowerBound + lineDelta)...($0.upperBound + lineDelta) }
        return ListBuffer(bytes: newBytes, globalFilter: globalFilter, lineStarts: starts, found: found.sorted { ($0.line, $0.column) < ($1.line, $1.column) },
                          slices: slices, ids: ids, frontMatterEnd: frontMatterEnd)
    }
}

extension ListBuffer {
    /// A part of the buffer that questions about `lines` (1-based) can be asked of alone: the lines
    /// of the one top-level task holding them all, when they read alone as in the list and the
    /// part's first line ending is the list's (the one tick writes new lines with). Its lines count
    /// from 1 again (`firstLine` is where it starts), and `bytes` is where it sits in the buffer.
    public func part(holding lines: ClosedRange<Int>) -> (buffer: ListBuffer, firstLine: Int, bytes: Range<Int>)? {
        var low = 0, high = slices.count
        while low < high {
            let mid = (low + high) / 2
            if slices[mid].upperBound < lines.lowerBound { low = mid + 1 } else { high = mid }
        }
        guard low < slices.count, slices[low].contains(lines.lowerBound), slices[low].contains(lines.upperBound),
              slices[low].lowerBound > frontMatterEnd else { return nil }
        let slice = slices[low]
        let range = lineStarts[slice.lowerBound - 1]..<end(ofLine: slice.upperBound)
        let part = ListBuffer(bytes: Array(bytes[range]), globalFilter: globalFilter)
        guard ListBuffer.firstEnding(part.bytes) == ListBuffer.firstEnding(bytes) else { return nil }
        return (part, slice.lowerBound, range)
    }

    /// The first line ending of `bytes` (LF when there is none), as `LineEnding` reads a file's.
    static func firstEnding(_ bytes: [UInt8]) -> [UInt8] {
        guard let i = bytes.firstIndex(where: { $0 == 10 || $0 == 13 }) else { return [10] }
        return bytes[i] == 13 ? (i + 1 < bytes.count && bytes[i + 1] == 10 ? [13, 10] : [13]) : [10]
    }
}
