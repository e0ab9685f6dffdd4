import TickFormat

/// Merges one title line field by field.
///
/// The checkbox with `done:`, due, priority, flag, `rec:`, `until:`, `id:` and the list marker are
/// scalars: a change on one side is taken, the same change on both sides once, different changes
/// conflict (two completions keep the earlier date; a repeating task advanced on both sides keeps
/// the later due date). The title without tokens and tags merges as a whole. Tags added on the
/// other side are appended; tags it removed are removed.
enum TitleMerge {
    /// The merged line, or nil for a conflict.
    static func merge(base: TaskNode, ours: TaskNode, theirs: TaskNode) -> MergeLine? {
        guard let bf = base.title, let of = ours.title, let tf = theirs.title,
              base.head.count == 1, ours.head.count == 1, theirs.head.count == 1 else { return nil }
        let titleChangedOurs = ours.normalizedTitle != base.normalizedTitle
        let titleChangedTheirs = theirs.normalizedTitle != base.normalizedTitle
        if titleChangedOurs, titleChangedTheirs, ours.normalizedTitle != theirs.normalizedTitle { return nil }
        // The line whose title wins carries the other side's field changes.
        let carrierIsTheirs = titleChangedTheirs && !titleChangedOurs
        let (carrier, cf) = carrierIsTheirs ? (theirs, tf) : (ours, of)
        let (other, xf) = carrierIsTheirs ? (ours, of) : (theirs, tf)
        let b = base.head[0].content, c = carrier.head[0].content, x = other.head[0].content

        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var appended: [[UInt8]] = []

        // The list marker and indentation.
        let bp = Array(b[..<bf.checkbox]), cp = Array(c[..<cf.checkbox]), xp = Array(x[..<xf.checkbox])
        if cp != xp, xp != bp {
            guard cp == bp else { return nil }
            edits.append((0..<cf.checkbox, xp))
        }

        // The checkbox.
        func isDone(_ byte: UInt8) -> Bool { byte != 0x20 }
        let bb = b[bf.checkbox + 1], cb = c[cf.checkbox + 1], xb = x[xf.checkbox + 1]
        if isDone(cb) != isDone(xb), isDone(xb) != isDone(bb) {
            edits.append(((cf.checkbox + 1)..<(cf.checkbox + 2), [xb]))
        }

        func value(_ line: [UInt8], _ fields: TitleFields, _ field: TaskOutline.Field) -> [UInt8]? {
            fields.range(of: field).map { Array(line[$0]) }
        }
        let recurring = value(b, bf, .recurrence) != nil && value(b, bf, .recurrence) == value(c, cf, .recurrence)
            && value(b, bf, .recurrence) == value(x, xf, .recurrence)
        for field in TaskOutline.Field.allCases {
            let vb = value(b, bf, field), vc = value(c, cf, field), vx = value(x, xf, field)
            if vc == vx || vx == vb { continue }
            if vc != vb {
                // Both changed it, differently.
                switch field {
                case .done where isDone(cb) && isDone(xb) && vc != nil && vx != nil:
                    // Completed on both sides: the first completion counts.
                    if vx!.lexicographicallyPrecedes(vc!) { break } else { continue }
                case .due where recurring && vc != nil && vx != nil:
                    // A repeating task advanced on both sides: the later next date (`Recurrence.merged`).
                    guard let dc = dueDate(vc!), let dx = dueDate(vx!) else { return nil }
                    if Recurrence.merged(dc, dx) == dc { continue } else { break }
                default:
                    return nil
                }
            }
            if let range = cf.range(of: field) {
                if let vx { edits.append((range, vx)) } else { edits.append((removal(range, in: c), [])) }
            } else if let vx {
                appended.append(vx)
            }
        }

        // Tags: the other side's additions appended, its removals removed.
        for tag in xf.tags where !bf.tags.contains(tag) && !cf.tags.contains(tag) && !appended.contains(Array(("#" + tag).utf8)) {
            appended.append(Array(("#" + tag).utf8))
        }
        for tag in bf.tags where !xf.tags.contains(tag) && cf.tags.contains(tag) {
            guard let range = word(Array(("#" + tag).utf8), in: c, after: cf.checkbox + 3) else { return nil }
            edits.append((removal(range, in: c), []))
        }

        if !appended.isEmpty {
            var end = c.count
            while end > cf.checkbox + 3, c[end - 1] == 0x20 || c[end - 1] == 0x09 { end -= 1 }
            edits.append((end..<end, appended.flatMap { [0x20] + $0 }))
        }
        edits.sort { ($0.range.lowerBound, $0.range.upperBound) > ($1.range.lowerBound, $1.range.upperBound) }
        var result = c
        var limit = c.count
        for edit in edits {
            guard edit.range.upperBound <= limit else { return nil }
            result.replaceSubrange(edit.range, with: edit.bytes)
            limit = edit.range.lowerBound
        }
        guard verify(result, checkbox: cf.checkbox) else { return nil }
        return MergeLine(content: result, ending: carrier.head[0].ending)
    }

    /// The date of a `due:` token; nil when it is malformed.
    private static func dueDate(_ token: [UInt8]) -> DueDate? {
        guard let colon = token.firstIndex(of: 0x3A) else { return nil }
        return DueDate(iso: token[(colon + 1)...])
    }

    /// A token's range with the space before it (else the one after), so that removing it leaves
    /// single spaces.
    private static func removal(_ range: Range<Int>, in line: [UInt8]) -> Range<Int> {
        if range.lowerBound > 0, line[range.lowerBound - 1] == 0x20 || line[range.lowerBound - 1] == 0x09 {
            return (range.lowerBound - 1)..<range.upperBound
        }
        if range.upperBound < line.count, line[range.upperBound] == 0x20 { return range.lowerBound..<(range.upperBound + 1) }
        return range
    }

    /// The first place `text` stands as a word of `line` (between spaces or the line's ends).
    private static func word(_ text: [UInt8], in line: [UInt8], after start: Int) -> Range<Int>? {
        var i = start
        while i + text.count <= line.count {
            let before = i == 0 || line[i - 1] == 0x20 || line[i - 1] == 0x09
            let afterOK = i + text.count == line.count || line[i + text.count] == 0x20 || line[i + text.count] == 0x09
            if before, afterOK, Array(line[i..<(i + text.count)]) == text { return i..<(i + text.count) }
            i += 1
        }
        return nil
    }

    /// Whether the merged line still reads as one task with regular metadata.
    private static func verify(_ line: [UInt8], checkbox: Int) -> Bool {
        let document = Document(bytes: Array(line[checkbox...]).prefixedWithMarker)
        return document.tasks.count == 1 && document.taskOutlines.first?.irregular == false
    }
}

private extension Array where Element == UInt8 {
    /// `- ` before the checkbox and title, for a check that does not depend on indentation.
    var prefixedWithMarker: [UInt8] { [UInt8(ascii: "-"), 0x20] + self }
}
