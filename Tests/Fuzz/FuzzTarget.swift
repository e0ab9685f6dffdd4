// libFuzzer entry point, built by `make fuzz` together with the TickFormat sources into one
// module (so it sees internals). Properties: no crash; exact round trip; a random edit touches
// only its item (or inserts without changing a byte); re-parsing the result gives the model the
// edit reported; removing many tasks together gives the bytes of removing them one at a time; an
// edit inside a title line read again without cmark (`reading(_:splices:)`) reads as a full parse,
// and so do task lines appended to a list that ends the file (`reading(_:appending:)`);
// line edits of many tasks together give the bytes of one at a time and read as a full parse.
// The edits include the repetition tokens, the move of a repeating task to its
// next occurrence (11-13) and the completed copy that `--keep-history` inserts after a task (10),
// and the Obsidian Tasks signifiers and Dataview fields: each edit in the task's style, and new
// tasks in each style (7). Bit 7 of the last byte reads the file with the global filter `#task`
// (FORMAT.md 11): then every task holds it, each is a task read without the filter too, and every
// re-reading uses it.

@_cdecl("LLVMFuzzerTestOneInput")
public func tickFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The last byte chooses the edit; the rest is the file.
    let choice = bytes.popLast().map(Int.init) ?? 0
    let filter = choice & 0x80 == 0 ? nil : GlobalFilter("#task")
    // Read for editing: the edits inside title lines are read again without cmark.
    let document = Document(editing: bytes, globalFilter: filter)
    precondition(document.serialize() == bytes, "round trip failed")
    if let filter {
        let unfiltered = Set(Document(bytes: bytes).tasks.map(\.line))
        precondition(document.tasks.allSatisfy { filter.isIncluded(in: bytes, $0.titleRange) && unfiltered.contains($0.line) },
                     "the filter's tasks are not the tasks holding it")
    }
    guard !document.tasks.isEmpty else { return 0 }
    checkRemovingTogether(document, choice: choice)
    checkReadingWithoutCmark(document, choice: choice)
    checkAppendingWithoutCmark(document, choice: choice)
    checkLineEditsTogether(document, choice: choice)
    let i = (choice >> 4) % document.tasks.count
    let task = document.tasks[i]
    let item = document.lines.start(task.firstLine)..<document.lines.end(task.lastLine)
    let day = Day(year: 2026, month: 11, day: 30)!
    let result: EditResult
    do {
        switch choice & 0x0F {
        case 0: result = try document.settingDone(i, !task.done, on: day)
        // A signifier or Dataview field holds no time (FORMAT.md 11).
        case 1: result = try document.settingDue(i, task.due == nil ? DueDate(day: day, minutes: task.style == .tick ? 570 : nil) : nil)
        case 2: result = try document.settingPriority(i, Priority(rawValue: (task.priority.rawValue + 1) % 4)!)
        case 3: result = try document.settingFlag(i, !task.flagged)
        case 4: result = try document.retitling(i, "Fuzzed title #tag")
        case 5: result = try document.replacingNotes(i, "note one\n\nnote two")
        case 6: result = try document.appendingNote(i, "appended")
        case 7:
            var new = NewTask(title: "New", due: DueDate(day: day), priority: .high, flagged: true)
            new.style = TaskStyle.allCases[(choice >> 4) % TaskStyle.allCases.count]
            new.recurrence = choice & 0x40 == 0 ? nil : RecurrenceRule(count: 3, unit: .week, mode: .completion)
            result = try document.inserting(new, at: .end)
        case 8: result = try document.inserting(NewTask(title: "Child"), at: .subtask(of: i))
        case 9: result = try document.removing(i)
        case 10: result = try document.recordingCompletion(i, on: day)
        case 11:
            // `rec:++…` has no Tasks phrase: a task in the plugin's style gets `every 2 months`.
            let mode: RecurrenceRule.Mode = task.style == .tick ? .future : .due
            result = try document.settingRecurrence(i, task.recurrence == nil ? RecurrenceRule(count: 2, unit: .month, mode: mode) : nil)
        case 12: result = try document.settingUntil(i, task.until == nil ? day : nil)
        case 13: result = try document.advancingRecurrence(i, to: DueDate(day: day.adding(days: 7), minutes: task.due?.minutes))
        default: result = try Document("# Other\n\n- [ ] there\n", globalFilter: filter).inserting(document.extracting(i), at: .end)
        }
    } catch {
        // `until:` is refused after a Tasks 🔁 phrase, whose line the plugin reads only at its end
        // (FORMAT.md 11); any other refusal is a structure tick will not change.
        precondition(error.reason == .structure || (choice & 0x0F == 12 && error.reason == .badValue),
                     "unexpected refusal: \(error)")
        return 0
    }
    let new = result.document.serialize()
    let reparsed = Document(bytes: new, globalFilter: filter)
    precondition(reparsed.expectedModel() == result.document.expectedModel(), "re-parse differs from the edited model")
    switch choice & 0x0F {
    case 7, 8, 10, 14...:
        break  // insertions, into this document or (a move) into another one
    default:
        let tail = bytes.count - item.upperBound
        precondition(new.count >= item.lowerBound + tail
                     && new[..<item.lowerBound].elementsEqual(bytes[..<item.lowerBound])
                     && new[(new.count - tail)...].elementsEqual(bytes[item.upperBound...]),
                     "edit reached outside its item")
    }
    if choice & 0x0F == 7 || choice & 0x0F == 8 || choice & 0x0F == 10 {
        var prefix = 0
        while prefix < bytes.count, prefix < new.count, bytes[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < bytes.count - prefix, bytes[bytes.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        precondition(prefix + suffix == bytes.count, "an insertion changed existing bytes")
    }
    return 0
}

/// A move of many tasks removes them together (`removingTogether`) only where that gives the bytes of
/// removing them one at a time from the last, when that succeeds; otherwise it must decline (nil). Two of every three
/// top-level tasks, by the choice byte.
func checkRemovingTogether(_ document: Document, choice: Int) {
    let chosen = document.tasks.indices.filter { document.tasks[$0].parent == nil && ($0 + choice) % 3 != 0 }
    guard let together = try? document.removingTogether(chosen) else { return }
    var one = document
    for k in chosen.reversed() {
        // One at a time can meet a structure it refuses on the way (a later task removed first leaves
        // text that would read as a list item); the splice together was checked whole by its own parse.
        guard let removed = try? one.removing(k) else { return }
        one = removed.document
    }
    precondition(together.serialize() == one.serialize(), "removing together differs from one at a time")
}

/// Line edits of every other task (or every third), applied together (`applyingTogether`), write
/// the bytes of applying them one at a time, refuse what that refuses, and read as a full parse of
/// their bytes: the title and tags taken as read (`Expected.titleAsRead`) included.
func checkLineEditsTogether(_ document: Document, choice: Int) {
    let day = Day(year: 2026, month: 11, day: 30)!
    let step = choice & 0x20 == 0 ? 2 : 3
    let edits: [(task: Int, edit: LineEdit)] = stride(from: choice % step, to: document.tasks.count, by: step).map { i in
        let task = document.tasks[i]
        switch (choice >> 2) % 4 {
        case 0: return (i, .done(!task.done, on: day))
        case 1: return (i, .due(task.due == nil ? DueDate(day: day) : nil))
        case 2: return (i, .flag(!task.flagged))
        default: return (i, .priority(Priority(rawValue: (task.priority.rawValue + 1) % 4)!))
        }
    }
    guard edits.count > 1 else { return }
    var alone: Document? = document
    for (i, edit) in edits {
        do {
            switch edit {
            case .done(let done, let day): alone = try alone!.settingDone(i, done, on: day).document
            case .due(let due): alone = try alone!.settingDue(i, due).document
            case .flag(let flagged): alone = try alone!.settingFlag(i, flagged).document
            case .priority(let priority): alone = try alone!.settingPriority(i, priority).document
            default: preconditionFailure("an edit this check does not make")
            }
        } catch {
            alone = nil
            break
        }
    }
    guard let together = try? document.applyingTogether(edits) else { return }
    precondition(alone != nil, "together wrote what one at a time refuses")
    precondition(together.serialize() == alone!.serialize(), "line edits together differ from one at a time")
    let parsed = Document(bytes: together.serialize(), globalFilter: document.globalFilter)
    precondition(parsed.expectedModel() == together.expectedModel(), "line edits together read otherwise than a full parse")
}

/// Bytes put inside a title line by `checkReadingWithoutCmark`.
let titleLineSnippets: [[UInt8]] = ["x", " done:2026-11-30", "`", "\\", "<!--", "]: /u", "[", "*", "# ", "\t", "\u{0}"].map { Array($0.utf8) }

/// A splice inside a task's title line (its box's mark, or bytes after the space after the box) read again without cmark must read as a full
/// parse of the same bytes: every task, note and problem, the headings and the sections.
func checkReadingWithoutCmark(_ document: Document, choice: Int) {
    let task = document.tasks[choice % document.tasks.count]
    let splice: Document.Splice
    if choice % 5 == 0 {
        splice = Document.Splice(range: (task.checkbox + 1)..<(task.checkbox + 2), bytes: [Array(" xX".utf8)[choice % 3]])
    } else {
        let start = task.checkbox + 4, end = document.lines.contentEnd(task.line)
        guard start <= end else { return }
        let at = start + (choice * 31 + document.bytes.count) % (end - start + 1)
        splice = Document.Splice(range: at..<(choice & 1 == 0 ? at : end), bytes: titleLineSnippets[choice % titleLineSnippets.count])
    }
    precondition(document.isInsideTitleLine(splice), "a splice inside a title line is not taken for one")
    let bytes = document.splicing([splice])
    let reused = document.reading(bytes, splices: [splice])
    let parsed = Document(bytes: bytes, globalFilter: document.globalFilter)
    precondition(readModel(reused) == readModel(parsed), "reading without cmark differs from a full parse")
}

/// Task lines appended after the last line, read without cmark when `outlineAppending` knows their
/// blocks, must read as a full parse of the same bytes. They take the last line's first byte as
/// their marker, so that a file ending with a task's line is extended as tick extends it.
func checkAppendingWithoutCmark(_ document: Document, choice: Int) {
    let bytes = document.bytes
    guard bytes.last == 0x0A else { return }
    let start = bytes.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    var text: [UInt8] = []
    for k in 0..<(1 + choice % 3) {
        text += [bytes[start], 0x20, UInt8(ascii: "["), k == 1 ? UInt8(ascii: "x") : 0x20, UInt8(ascii: "]"), 0x20]
        text += titleLineSnippets[(choice + k) % titleLineSnippets.count] + [0x0A]
    }
    let appended = bytes + text
    let read = document.reading(appended, appending: text)
    let parsed = Document(bytes: appended, globalFilter: document.globalFilter)
    precondition(readModel(read) == readModel(parsed), "appended task lines read without cmark differ from a full parse")
}

/// Everything a reading gives, written out: every task, note and problem, the headings and the sections.
func readModel(_ d: Document) -> String {
    var out = ""
    print(d.tasks, d.notes, d.diagnostics, d.heading as Any, d.headingLine as Any,
          d.sections.map { "\($0.line) \($0.level) \($0.text)" }, d.lines.count, to: &out)
    return out
}
