import TickFormat

/// A line of a version being merged: its bytes and its own line ending (empty on a last line
/// without one). Lines compare by content: a merge keeps each line's ending as written.
struct MergeLine: Equatable {
    var content: [UInt8]
    var ending: [UInt8]

    static func == (a: MergeLine, b: MergeLine) -> Bool { a.content == b.content }
}

/// What a merge aligns at one level of a file: a line outside any task, or a whole task.
enum MergeUnit {
    case text(MergeLine)
    case task(TaskNode)

    var lines: [MergeLine] {
        switch self {
        case .text(let line): return [line]
        case .task(let node): return node.lines
        }
    }
}

/// A task with everything it owns: its title line (`head`, with a blank line before it when the item
/// starts with one), then its notes (the rest of the title paragraph included), subtasks and
/// trailing blank lines (`body`, where subtasks are nodes of their own).
struct TaskNode {
    var head: [MergeLine]
    var body: [MergeUnit]
    /// The title line as the merge reads it: nil when the head is more than one line or the line
    /// holds irregular metadata; the head then merges as a whole.
    var title: TitleFields?
    var id: String?
    var section: String?
    /// The title without tokens and tags, with single spaces.
    var normalizedTitle: String

    var lines: [MergeLine] { head + body.flatMap(\.lines) }
}

/// The fields of one title line, as byte ranges of its content.
struct TitleFields {
    var checkbox: Int
    var fields: [(field: TaskOutline.Field, range: Range<Int>)]
    var tags: [String]

    func range(of field: TaskOutline.Field) -> Range<Int>? { fields.first { $0.field == field }?.range }
}

/// A version of a list file cut into units.
struct MergeVersion {
    var units: [MergeUnit]
    var finalNewline: Bool
    var ending: [UInt8]

    /// Cuts `bytes`; nil when the tasks do not nest the way the merge needs (it then falls back to a line merge).
    init?(_ bytes: [UInt8]) {
        let document = Document(bytes: bytes)
        let outlines = document.taskOutlines
        let lines = (0..<document.lineCount).map { n -> MergeLine in
            let parts = document.lineParts(n + 1)
            return MergeLine(content: Array(parts.content), ending: Array(parts.ending))
        }
        var children = [[Int]](repeating: [], count: outlines.count)
        var roots: [Int] = []
        for (i, o) in outlines.enumerated() {
            if let p = o.parent { children[p].append(i) } else { roots.append(i) }
        }

        func node(_ i: Int) -> TaskNode? {
            let o = outlines[i]
            guard o.firstLine <= o.line, o.line <= o.paragraphEndLine, o.paragraphEndLine <= o.lastLine,
                  o.lastLine <= lines.count else { return nil }
            guard let body = units(from: o.line + 1, through: o.lastLine, tasks: children[i]) else { return nil }
            let task = document.tasks[i]
            let head = Array(lines[(o.firstLine - 1)..<o.line])
            let single = o.firstLine == o.line && !o.irregular
            return TaskNode(head: head, body: body,
                            title: single ? TitleFields(checkbox: o.checkbox, fields: o.fields, tags: task.tags) : nil,
                            id: task.id, section: task.section,
                            normalizedTitle: TaskNode.normalize(task.title, tags: task.tags))
        }

        func units(from first: Int, through last: Int, tasks: [Int]) -> [MergeUnit]? {
            var result: [MergeUnit] = []
            var n = first
            var next = 0
            while n <= last {
                if next < tasks.count, outlines[tasks[next]].firstLine == n {
                    guard let child = node(tasks[next]), outlines[tasks[next]].lastLine <= last else { return nil }
                    result.append(.task(child))
                    n = outlines[tasks[next]].lastLine + 1
                    next += 1
                } else {
                    if next < tasks.count, outlines[tasks[next]].firstLine < n { return nil }
                    result.append(.text(lines[n - 1]))
                    n += 1
                }
            }
            guard next == tasks.count else { return nil }
            return result
        }

        guard let all = units(from: 1, through: lines.count, tasks: roots) else { return nil }
        self.units = all
        finalNewline = lines.last.map { !$0.ending.isEmpty } ?? true
        ending = Array(document.lineEnding.rawValue.utf8)
    }
}

extension TaskNode {
    /// `title` without its tags (`#word` where `word` is one of `tags`), with single spaces.
    static func normalize(_ title: String, tags: [String]) -> String {
        let tagWords = Set(tags.map { "#" + $0 })
        return title.split(whereSeparator: { $0 == " " || $0 == "\t" })
            .filter { !tagWords.contains(String($0)) }
            .joined(separator: " ")
    }
}
