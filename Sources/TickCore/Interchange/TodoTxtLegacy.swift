import TickFormat

// TEMPORARY: the String-based reader, kept only until the differential test has compared it with the byte reader.
extension TodoTxt {

    /// The tasks of a todo.txt file. `list`, when given, takes every task (the first `+project`
    /// then stays in the title like the others). A line tick cannot take (a bad `due:` or `rec:`, a
    /// word tick would refuse) refuses the whole file, naming the line.
    static func legacyRead(_ bytes: [UInt8], list: String?, now: Now) throws(InterchangeError) -> ImportReading {
        var reading = ImportReading()
        var lineNumber = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = raw
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let place = "line \(lineNumber)"
            guard let text = String(validating: line, as: UTF8.self) else {
                throw InterchangeError(place, "not valid UTF-8")
            }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.isEmpty { continue }
            reading.tasks.append(try legacyTask(words, list: list, now: now, place: place, reading: &reading))
        }
        return reading
    }

    static func legacyTask(_ all: [String], list fixedList: String?, now: Now, place: String,
                             reading: inout ImportReading) throws(InterchangeError) -> ImportedTask {
        var words = all[...]
        var done = false, doneDate: Day? = nil, created: Day? = nil, priority = Priority.none
        var keptLetter: String? = nil
        if words.first == "x" {
            done = true
            words = words.dropFirst()
            if let day = words.first.flatMap(Day.init(iso:)) {
                doneDate = day
                words = words.dropFirst()
                if let day = words.first.flatMap(Day.init(iso:)) { created = day; words = words.dropFirst() }
            }
        }
        if let first = words.first, let letter = legacyPriorityLetter(first) {
            (priority, keptLetter) = legacyMapped(letter)
            words = words.dropFirst()
        }
        if created == nil, let day = words.first.flatMap(Day.init(iso:)) { created = day; words = words.dropFirst() }

        var list = fixedList
        var out: [String] = []
        var flagged = false
        var id: String? = nil
        for word in words {
            if word.hasPrefix("id:") {
                // The task's id (FORMAT.md 5.8), as tick's own export and topydo (`id:1`) write it.
                let value = String(word.dropFirst(3))
                guard isValidTaskID(value) else {
                    throw InterchangeError(place, "'\(word.escapingNonPrinting)' is not an id tick reads (FORMAT.md 5.8)")
                }
                guard id == nil else { throw InterchangeError(place, "two ids, id:\(id!) and \(word.escapingNonPrinting)") }
                id = value
            } else if word.hasPrefix("+"), word.count > 1 {
                let project = String(word.dropFirst())
                if list == nil { list = project; continue }
                // Kept as written, so that the export writes it back as a project, not a context.
                out.append(word)
            } else if word.hasPrefix("@"), word.count > 1 {
                let context = String(word.dropFirst())
                if context == "flag" { flagged = true; continue }
                out.append(Interchange.isTagName(context) ? "#" + context : word)
            } else if word.hasPrefix("due:") {
                guard DueDate(iso: Array(word.utf8.dropFirst(4))) != nil else {
                    throw InterchangeError(place, "'\(word.escapingNonPrinting)' is not a due date YYYY-MM-DD")
                }
                out.append(word)
            } else if word.hasPrefix("rec:") {
                guard RecurrenceRule(value: String(word.dropFirst(4))) != nil else {
                    throw InterchangeError(place, "'\(word.escapingNonPrinting)' is not a rule tick reads (1w, +1w, ++1w; d, w, m, y, b)")
                }
                out.append(word)
            } else if word.hasPrefix("pri:"), word.count == 5, let letter = legacyPriorityLetter("(" + word.dropFirst(4) + ")") {
                let (level, kept) = legacyMapped(letter)
                if priority == .none { priority = level }
                if kept != nil || priority != level { out.append(word) }
            } else {
                out.append(word)
            }
        }
        if let keptLetter { out.append("pri:" + keptLetter) }
        if let created { out.append("created:\(created)") }
        if let token = priority.token { out.append(token) }
        if flagged { out.append("#flag") }
        let task = try Interchange.task(fromLine: out, done: done, doneDate: doneDate, notes: "", now: now, place: place)
        return ImportedTask(id: id, list: list, task: task, place: place)
    }

    /// `A` for `(A)`, nil for anything else.
    static func legacyPriorityLetter(_ word: String) -> Character? {
        let c = Array(word)
        guard c.count == 3, c[0] == "(", c[2] == ")", c[1].isASCII, c[1].isUppercase else { return nil }
        return c[1]
    }

    /// A priority letter's level, and the letter to keep as `pri:X` when the level cannot say it.
    static func legacyMapped(_ letter: Character) -> (Priority, String?) {
        switch letter {
        case "A": return (.high, nil)
        case "B": return (.medium, nil)
        case "C": return (.low, nil)
        default: return (.low, String(letter))
        }
    }

}
