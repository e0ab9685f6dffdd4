import TickFormat

/// todo.txt (one task a line: `x DONE CREATED (A) text +project @context key:value`), both ways.
/// The README's mapping table says what happens to every field.
public enum TodoTxt {
    // MARK: - Reading

    /// The tasks of a todo.txt file. `list`, when given, takes every task (the first `+project`
    /// then stays in the title like the others). A line tick cannot take (a bad `due:` or `rec:`, a
    /// word tick would refuse) refuses the whole file, naming the line.
    ///
    /// Lines and words are read as bytes: a word is a run of bytes between spaces and tabs, and a
    /// word's prefix (`due:`, `+`, …) is its first bytes. A line with non-ASCII text is split, and
    /// its words' prefixes compared, by characters, as the text reads (a space followed by a
    /// combining mark is one character and no separator).
    public static func read(_ bytes: [UInt8], list: String?, now: Now) throws(InterchangeError) -> ImportReading {
        var lines = LineReadings()
        return try read(bytes, list: list, now: now, lines: &lines)
    }

    /// How the lines of a file were read: each as `tick add` reads a typed line, or, where that
    /// reading is known (`task(_:ascii:…)`), without it. `typedOnly` reads every line as typed.
    struct LineReadings {
        var typedOnly = false
        /// The lines whose reading was known.
        var known = 0
    }

    static func read(_ bytes: [UInt8], list: String?, now: Now,
                     lines: inout LineReadings) throws(InterchangeError) -> ImportReading {
        var reading = ImportReading()
        reading.tasks.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        try bytes.withUnsafeBufferPointer { (bytes) throws(InterchangeError) in
            try read(bytes, list: list, now: now, into: &reading, lines: &lines)
        }
        return reading
    }

    /// A word of a line: its bytes, in place in the file's.
    private typealias Word = Slice<UnsafeBufferPointer<UInt8>>

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, list: String?, now: Now,
                             into reading: inout ImportReading, lines: inout LineReadings) throws(InterchangeError) {
        var lineNumber = 0
        var start = 0
        var words: [Word] = []
        while start <= bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { start = newline + 1 }
            lineNumber += 1
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = bytes[start..<end]
            words.removeAll(keepingCapacity: true)
            let ascii = line.allSatisfy({ $0 < 0x80 })
            if ascii {
                var k = start
                while k < end {
                    while k < end, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
                    let from = k
                    while k < end, bytes[k] != 0x20, bytes[k] != 0x09 { k += 1 }
                    if k > from { words.append(bytes[from..<k]) }
                }
            } else {
                guard let text = String(validating: UnsafeBufferPointer(rebasing: line), as: UTF8.self) else {
                    throw InterchangeError("line \(lineNumber)", "not valid UTF-8")
                }
                for part in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                    words.append(bytes[(start + text.utf8.distance(from: text.startIndex, to: part.startIndex))
                                       ..< (start + text.utf8.distance(from: text.startIndex, to: part.endIndex))])
                }
            }
            if words.isEmpty { continue }
            let place = "line \(lineNumber)"
            reading.tasks.append(try task(words, ascii: ascii && !lines.typedOnly, list: list, now: now, place: place,
                                          known: &lines.known))
        }
    }

    /// The task of a line's words. The line tick writes for it (`out`) holds the title words and
    /// tick's tokens; it is read as `tick add` reads a typed line (`TitleInput`), unless every title
    /// word of an ASCII line is one that reading takes as title text as it stands (`asIs`). Then
    /// the reading is known without it: the title is the title words, the tokens the ones written.
    private static func task(_ all: [Word], ascii: Bool, list fixedList: String?, now: Now,
                             place: String, known count: inout Int) throws(InterchangeError) -> ImportedTask {
        var words = all[...]
        var done = false, doneDate: Day? = nil, created: Day? = nil, priority = Priority.none
        var keptLetter: UInt8? = nil
        if words.first.map({ $0.elementsEqual("x".utf8) }) == true {
            done = true
            words = words.dropFirst()
            if let day = words.first.flatMap(isoDay) {
                doneDate = day
                words = words.dropFirst()
                if let day = words.first.flatMap(isoDay) { created = day; words = words.dropFirst() }
            }
        }
        if let first = words.first, let letter = priorityLetter(first) {
            (priority, keptLetter) = mapped(letter)
            words = words.dropFirst()
        }
        if created == nil, let day = words.first.flatMap(isoDay) { created = day; words = words.dropFirst() }

        var list = fixedList
        var out: [UInt8] = []
        out.reserveCapacity(all.reduce(0) { $0 + $1.count + 1 } + 24)
        // The title words alone, while the line can be read without `TitleInput`.
        var known = ascii
        var title: [UInt8] = []
        title.reserveCapacity(out.capacity)
        var due: DueDate? = nil, rule: RecurrenceRule? = nil
        var afterDue = false
        // A title word; a time word after `due:` would be read with it.
        func put<C: Collection<UInt8>>(_ word: C) {
            if !out.isEmpty { out.append(0x20) }
            out.append(contentsOf: word)
            guard known else { return }
            if afterDue, DueDate.isTimeWord(String(decoding: word, as: UTF8.self)) { known = false }
            afterDue = false
            if !asIs(word) { known = false }
            if !title.isEmpty { title.append(0x20) }
            title.append(contentsOf: word)
        }
        // A token tick writes for the line: what `TitleInput` takes out of the title.
        func putToken<C: Collection<UInt8>>(_ word: C) {
            if !out.isEmpty { out.append(0x20) }
            out.append(contentsOf: word)
            afterDue = false
        }
        var flagged = false
        var id: String? = nil
        for word in words {
            // Each word below starts with one of these bytes; most words are title words.
            guard let head = word.first, head == UInt8(ascii: "i") || head == UInt8(ascii: "+") || head == UInt8(ascii: "@")
                    || head == UInt8(ascii: "d") || head == UInt8(ascii: "r") || head == UInt8(ascii: "p") else {
                put(word)
                continue
            }
            if starts(word, with: "id:") {
                // The task's id (FORMAT.md 5.8), as tick's own export and topydo (`id:1`) write it.
                let value = String(decoding: word.dropFirst(3), as: UTF8.self)
                guard isValidTaskID(value) else {
                    throw InterchangeError(place, "'\(shown(word))' is not an id tick reads (FORMAT.md 5.8)")
                }
                guard id == nil else { throw InterchangeError(place, "two ids, id:\(id!) and \(shown(word))") }
                id = value
            } else if starts(word, with: "+"), word.count > 1 {
                if list == nil { list = String(decoding: word.dropFirst(), as: UTF8.self); continue }
                // Kept as written, so that the export writes it back as a project, not a context.
                put(word)
            } else if starts(word, with: "@"), word.count > 1 {
                let context = word.dropFirst()
                if context.elementsEqual("flag".utf8) { flagged = true; continue }
                if Interchange.isTagName(String(decoding: context, as: UTF8.self)) {
                    put([UInt8(ascii: "#")] + context)
                } else {
                    put(word)
                }
            } else if starts(word, with: "due:") {
                guard let date = DueDate(iso: UnsafeBufferPointer(rebasing: word.dropFirst(4))) else {
                    throw InterchangeError(place, "'\(shown(word))' is not a due date YYYY-MM-DD")
                }
                // A second one is refused by the reading.
                if due != nil { known = false }
                due = date
                putToken(word)
                afterDue = true
            } else if starts(word, with: "rec:") {
                guard let value = RecurrenceRule(value: Array(word.dropFirst(4))) else {
                    throw InterchangeError(place, "'\(shown(word))' is not a rule tick reads (1w, +1w, ++1w; d, w, m, y, b)")
                }
                if rule != nil { known = false }
                rule = value
                putToken(word)
            } else if starts(word, with: "pri:"), word.count == 5, let letter = upperLetter(word.last!) {
                let (level, kept) = mapped(letter)
                if priority == .none { priority = level }
                if kept != nil || priority != level { put(word) }
            } else {
                put(word)
            }
        }
        if let keptLetter { put("pri:".utf8 + [keptLetter]) }
        if let created { put("created:\(created)".utf8) }
        if let token = priority.token { putToken(token.utf8) }
        if flagged { putToken("#flag".utf8) }
        var reading: TitleInput? = nil
        if known {
            count += 1
            reading = TitleInput(title: String(decoding: title, as: UTF8.self), due: due,
                                 priority: priority == .none ? nil : priority, flagged: flagged)
            reading!.recurrence = rule
        }
        let task = try Interchange.task(fromText: String(decoding: out, as: UTF8.self), reading: reading, done: done,
                                        doneDate: doneDate, notes: "", now: now, place: place)
        return ImportedTask(id: id, list: list, task: task, place: place)
    }

    /// Whether reading a typed line takes an ASCII title word as title text as it stands: nothing
    /// that could be a token (a word starting with `due:`, `done:`, `rec:`, `until:` or `!`, or a
    /// five-byte word starting with `#`, as `#flag` is), without a backtick (a code span makes
    /// tokens text) and without a control byte (a carriage return splits it).
    private static func asIs<C: Collection<UInt8>>(_ word: C) -> Bool {
        guard let head = word.first else { return false }
        for b in word where b < 0x20 || b == 0x7F || b == UInt8(ascii: "`") { return false }
        switch head {
        case UInt8(ascii: "d"): return !word.starts(with: "due:".utf8) && !word.starts(with: "done:".utf8)
        case UInt8(ascii: "r"): return !word.starts(with: "rec:".utf8)
        case UInt8(ascii: "u"): return !word.starts(with: "until:".utf8)
        case UInt8(ascii: "!"): return false
        case UInt8(ascii: "#"): return word.count != 5
        default: return true
        }
    }

    /// Whether `word` starts with the ASCII `prefix` as its text does: its first bytes, and for a
    /// word with non-ASCII text, a character boundary after them (`due:` followed by a combining
    /// mark is no `due:`).
    private static func starts(_ word: Word, with prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard word.count >= n else { return false }
        for k in 0..<n where word[word.startIndex + k] != prefix.utf8Start[k] { return false }
        guard word.count > n, word.contains(where: { $0 >= 0x80 }) else { return true }
        return String(decoding: word, as: UTF8.self).hasPrefix(prefix.description)
    }

    /// The day of a `YYYY-MM-DD` word (read from a buffer, the form the date readers take fastest).
    private static func isoDay(_ word: Word) -> Day? { Day(iso: UnsafeBufferPointer(rebasing: word)) }

    /// A word as an error message shows it.
    private static func shown(_ word: Word) -> String {
        String(decoding: word, as: UTF8.self).escapingNonPrinting
    }

    /// `A` for `(A)`, nil for anything else.
    private static func priorityLetter(_ word: Word) -> UInt8? {
        guard word.count == 3, word.first == UInt8(ascii: "("), word.last == UInt8(ascii: ")") else { return nil }
        return upperLetter(word[word.startIndex + 1])
    }

    /// `c` when it is an ASCII capital letter.
    private static func upperLetter(_ c: UInt8) -> UInt8? {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) ? c : nil
    }

    /// A priority letter's level, and the letter to keep as `pri:X` when the level cannot say it.
    private static func mapped(_ letter: UInt8) -> (Priority, UInt8?) {
        switch letter {
        case UInt8(ascii: "A"): return (.high, nil)
        case UInt8(ascii: "B"): return (.medium, nil)
        case UInt8(ascii: "C"): return (.low, nil)
        default: return (.low, letter)
        }
    }

    // MARK: - Writing

    /// One todo.txt line per task, in folder order. Notes are dropped and subtasks become lines of
    /// their own with `parent:REF`; both are counted in the summary.
    public static func render(_ tasks: [TaskFacts]) -> (text: String, summary: ExportSummary) {
        var summary = ExportSummary()
        var out = ""
        for task in tasks {
            summary.tasks += 1
            TaskFields.countLosses(task, in: .todoTxt, into: &summary)
            out += line(task) + "\n"
        }
        return (out, summary)
    }

    /// The todo.txt line of one task.
    public static func line(_ task: TaskFacts) -> String {
        let info = task.info
        var words = info.title.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var created: String? = nil
        var letter: String? = nil
        words.removeAll { word in
            if word.hasPrefix("created:"), created == nil, Day(iso: String(word.dropFirst(8))) != nil {
                created = String(word.dropFirst(8))
                return true
            }
            if !info.done, info.priority == .low, letter == nil, word.hasPrefix("pri:"), word.count == 5,
               let c = word.last, c.isASCII, c.isUppercase, c > "C" {
                letter = String(c)
                return true
            }
            return false
        }
        var parts: [String] = []
        if info.done {
            parts.append("x")
            if let day = info.doneDate {
                parts.append("\(day)")
                if let created { parts.append(created) }
            } else if let created {
                words.append("created:" + created)
            }
        } else {
            if let letter { parts.append("(\(letter))") }
            else if info.priority != .none { parts.append("(" + ["C", "B", "A"][info.priority.rawValue - 1] + ")") }
            if let created { parts.append(created) }
        }
        for word in words {
            // A tag (FORMAT.md 5.5) becomes a context.
            if word.hasPrefix("#"), word.count > 1, info.tags.contains(where: { word.dropFirst().hasPrefix($0) }) {
                parts.append("@" + word.dropFirst())
            } else {
                parts.append(word)
            }
        }
        parts.append("+" + String(task.listPath.dropLast(3)).split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: "-"))
        if info.flagged { parts.append("@flag") }
        if info.done, info.priority != .none, !words.contains(where: { $0.hasPrefix("pri:") }) {
            parts.append("pri:" + ["C", "B", "A"][info.priority.rawValue - 1])
        }
        if let due = info.due { parts.append("due:\(due)") }
        if let rule = info.recurrence { parts.append(rule.token) }
        if let until = info.until { parts.append("until:\(until)") }
        if let id = info.id { parts.append("id:" + id) }
        if let parent = task.parentRef { parts.append("parent:" + parent) }
        return parts.joined(separator: " ")
    }
}
