import TickCore

// Code actions: each a WorkspaceEdit made by the task edit the command line makes (`ListBuffer.
// applying`, the vocabulary of `TaskEdit`), over the tasks of the selection.

/// One action on the tasks of a selection.
struct TaskAction {
    var title: String
    var kind = "refactor.rewrite"
    var edit: TaskEdit
    var tasks: [Int]
}

extension LanguageServer {
    /// The completion `tick done` makes today, with the same settings.
    func completion(on day: Day) -> TaskEdit {
        if env.settings.keepHistory { return .completeKeepingHistory(on: day) }
        return env.settings.obsidianRecurrenceInPlace ? .completeInPlace(on: day) : .complete(on: day)
    }

    func codeActions(_ params: JSON) throws -> JSON {
        let document = try document(params)
        let start = try Position(params.at("range.start")), end = try Position(params.at("range.end"))
        let now = env.now()
        let last = end.line > start.line && end.character == 0 ? end.line : end.line + 1
        let lines = (start.line + 1)...max(start.line + 1, last)
        // A selection inside one top-level task is asked of that task's lines alone (`ListBuffer.part`).
        let part = document.buffer.part(holding: lines)
        let buffer = part?.buffer ?? document.buffer
        let shift = (part?.firstLine ?? 1) - 1
        let local = (lines.lowerBound - shift)...(lines.upperBound - shift)
        /// The action whose edit turns the part (or the whole buffer) into `bytes`.
        func answer(_ title: String, _ kind: String, _ bytes: [UInt8]) -> JSON {
            codeAction(title, kind, document, replacing: part?.bytes ?? 0..<document.text.bytes.count, with: bytes)
        }
        var actions: [JSON] = []
        for action in taskActions(buffer, selectedTasks(buffer, lines: local), now: now) {
            guard let bytes = try? buffer.applying(action.edit, to: action.tasks) else { continue }
            actions.append(answer(action.title, action.kind, bytes))
        }
        // A hand-typed date word, written as its date (`tick due REF tomorrow`).
        for word in document.dateWords(now: now) where lines.contains(word.line) {
            guard let i = buffer.task(onLine: word.line - shift),
                  let bytes = try? buffer.applying(.due(word.date), to: [i]) else { continue }
            actions.append(answer("Write due:\(word.date)", "quickfix", bytes))
        }
        // Lines that are not tasks, made tasks.
        if let bytes = turningIntoTasks(document, lines: (lines.lowerBound - 1)...(lines.upperBound - 1),
                                        isTask: { buffer.task(onLine: $0 + 1 - shift) != nil }) {
            actions.append(codeAction("Turn into a task", "refactor.rewrite", document, replacing: 0..<document.text.bytes.count, with: bytes))
        }
        return .array(actions)
    }

    /// The tasks whose checkbox line is in `lines` (1-based); when there is none, the innermost
    /// task holding the first line.
    func selectedTasks(_ buffer: ListBuffer, lines: ClosedRange<Int>) -> [Int] {
        var found = lines.compactMap { buffer.task(onLine: $0) }
        if found.isEmpty {
            found = (0..<buffer.taskCount).last { buffer.lines(of: $0).contains(lines.lowerBound) }.map { [$0] } ?? []
        }
        return found
    }

    /// The actions that change something on `tasks`, in the order an editor lists them.
    func taskActions(_ buffer: ListBuffer, _ tasks: [Int], now: Now) -> [TaskAction] {
        guard !tasks.isEmpty else { return [] }
        let infos = tasks.map { buffer.task($0) }
        let name = tasks.count == 1 ? "" : " \(tasks.count) tasks"
        var actions: [TaskAction] = []
        let open = tasks.filter { !buffer.task($0).done }, done = tasks.filter { buffer.task($0).done }
        if !open.isEmpty {
            let repeats = open.count == 1 && infos.first { !$0.done }?.recurrence != nil
            actions.append(TaskAction(title: "Complete" + name + (repeats ? " (moves to the next occurrence)" : ""),
                                      kind: "quickfix", edit: completion(on: now.day), tasks: open))
        }
        if !done.isEmpty { actions.append(TaskAction(title: "Reopen" + name, edit: .reopen, tasks: done)) }
        let repeating = open.filter { buffer.task($0).recurrence != nil }
        if !repeating.isEmpty {
            actions.append(TaskAction(title: "Skip this occurrence" + name, edit: .skip(today: now.day), tasks: repeating))
        }
        if infos.contains(where: { !$0.flagged }) { actions.append(TaskAction(title: "Flag" + name, edit: .flag(true), tasks: tasks)) }
        if infos.contains(where: { $0.flagged }) { actions.append(TaskAction(title: "Unflag" + name, edit: .flag(false), tasks: tasks)) }
        for level in [Priority.high, .medium, .low, .none] where infos.contains(where: { $0.priority != level }) {
            actions.append(TaskAction(title: level.isNone ? "Remove the priority" + name : "Priority \(level.name)" + name,
                                      edit: .priority(level), tasks: tasks))
        }
        for word in ["today", "tomorrow", "next week"] {
            guard let due = try? DueDate(parsing: word, relativeTo: now) else { continue }
            actions.append(TaskAction(title: "Due \(word) (\(due))" + name, edit: .due(due), tasks: tasks))
        }
        let removable = tasks.filter { buffer.task($0).due != nil && buffer.dueRemovalProblem($0) == nil }
        if !removable.isEmpty { actions.append(TaskAction(title: "Remove the due date" + name, edit: .due(nil), tasks: removable)) }
        let withoutID = tasks.filter { buffer.task($0).id == nil }
        if withoutID.count == 1 {
            actions.append(TaskAction(title: "Give it an id", edit: .giveID(mintID(avoiding: buffer)), tasks: withoutID))
        }
        return actions
    }

    /// A new `id:` value as `tick id` mints it: 10 symbols of the ref alphabet, used by no task of
    /// the buffer (or part of it) asked about, of an open buffer or of a saved list of the folder.
    func mintID(avoiding buffer: ListBuffer) -> String {
        var taken = Set(buffer.idValues)
        taken.formUnion(takenIDs())
        var generator = SystemRandomNumberGenerator()
        while true {
            let symbols = (0..<10).map { _ in Ref.alphabet[Int(generator.next(upperBound: UInt64(Ref.alphabet.count)))] }
            let value = String(decoding: symbols, as: UTF8.self)
            if !taken.contains(value) { return value }
        }
    }

    /// The text with each non-blank line of `lines` that is not a task made one: `[ ] ` after its
    /// list marker, or `- [ ] ` before its text; nil when no line changes.
    func turningIntoTasks(_ document: OpenDocument, lines: ClosedRange<Int>, isTask: (Int) -> Bool) -> [UInt8]? {
        let text = document.text
        var bytes = text.bytes
        var changed = false
        for line in lines.reversed() where line < text.lineCount {
            guard !isTask(line) else { continue }
            let start = text.lineStarts[line], end = text.contentEnd(line)
            var i = start
            while i < end, text.bytes[i] == 0x20 || text.bytes[i] == 0x09 { i += 1 }
            guard i < end, text.bytes[i] != UInt8(ascii: "#"), text.bytes[i] != UInt8(ascii: ">") else { continue }
            let c = text.bytes[i]
            if (c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+")), i + 1 < end, text.bytes[i + 1] == 0x20 {
                bytes.insert(contentsOf: Array("[ ] ".utf8), at: i + 2)
            } else {
                bytes.insert(contentsOf: Array("- [ ] ".utf8), at: i)
            }
            changed = true
        }
        return changed ? bytes : nil
    }

    /// A code action whose edit replaces the document's bytes `range` with `bytes`.
    func codeAction(_ title: String, _ kind: String, _ document: OpenDocument, replacing range: Range<Int>, with bytes: [UInt8]) -> JSON {
        .object(["title": .string(title), "kind": .string(kind),
                 "edit": .object(["changes": .object([(document.uri, .array([textEdit(document.text, replacing: range, with: bytes)]))])])])
    }

    /// One TextEdit that replaces the bytes `range` of `text` with `bytes`: narrowed to the bytes
    /// between their common start and common end, widened to whole characters and never splitting a CRLF.
    func textEdit(_ text: TextDocument, replacing range: Range<Int>, with bytes: [UInt8]) -> JSON {
        let old = text.bytes
        var prefix = 0
        while prefix < range.count, prefix < bytes.count, old[range.lowerBound + prefix] == bytes[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < range.count - prefix, suffix < bytes.count - prefix,
              old[range.upperBound - 1 - suffix] == bytes[bytes.count - 1 - suffix] {
            suffix += 1
        }
        func splits(_ i: Int) -> Bool {
            guard i > 0, i < old.count else { return false }
            return old[i] & 0xC0 == 0x80 || (old[i - 1] == 13 && old[i] == 10)
        }
        while prefix > 0, splits(range.lowerBound + prefix) { prefix -= 1 }
        while suffix > 0, splits(range.upperBound - suffix) { suffix -= 1 }
        let lower = range.lowerBound + prefix, upper = range.upperBound - suffix
        // Outside `range` nothing changes; a character split at its edge is taken whole from the text.
        var start = lower, end = upper
        while start > 0, splits(start) { start -= 1 }
        while end < old.count, splits(end) { end += 1 }
        let inserted = Array(old[start..<lower]) + Array(bytes[prefix..<(bytes.count - suffix)]) + Array(old[upper..<end])
        return .object(["range": text.range(start, end, encoding), "newText": .string(String(decoding: inserted, as: UTF8.self))])
    }
}
