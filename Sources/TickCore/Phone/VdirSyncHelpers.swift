import TickFormat

// The helpers of `tick vdir sync` (VdirSync.swift): a task's fields as the sync compares them, the
// tasks the phone adds, tags in a title, and the names and colours of collections.

extension VdirSync {
    static func tasksByID(_ library: Library) -> [String: TaskID] {
        var result: [String: TaskID] = [:]
        for id in library.ids { if let value = library.task(id).id, result[value] == nil { result[value] = id } }
        return result
    }

    /// Task `id`'s fields; `base` the base's, whose `DTSTART` kept from the phone is the task's too.
    static func fields(of id: TaskID, in library: Library, base: SyncFields? = nil) -> SyncFields {
        let task = library.task(id)
        var fields = SyncFields()
        fields.title = task.title
        fields.notes = library.notes(id)
        fields.done = task.done
        fields.doneDay = task.doneDate
        fields.due = task.due
        fields.priority = task.priority
        fields.rule = task.recurrence.map { $0.token + (task.until.map { " until:\($0)" } ?? "") }
        fields.tags = task.tags
        if let rule = task.recurrence, let due = task.due { fields.rrule = RecurrenceExport.rule(rule, until: task.until, due: due) }
        fields.start = ICalendar.startDay(due: task.due, start: task.start, repeats: task.recurrence != nil)
        if fields.start == nil, task.start == nil, let base, base.startKept { fields.start = base.start }
        return fields
    }

    /// `title` with the `#` words of `removing` taken out (with the space before each) and those of
    /// `adding` it lacks appended; every other byte stays.
    static func retitled(_ title: String, adding: [String], removing: [String]) -> String {
        var words = title.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for tag in removing {
            while let index = words.firstIndex(where: { $0.lowercased() == "#" + tag.lowercased() }) { words.remove(at: index) }
        }
        var result = words.joined(separator: " ")
        for tag in adding where !words.contains(where: { $0.lowercased() == "#" + tag.lowercased() }) {
            result += (result.isEmpty ? "#" : " #") + tag
        }
        return result
    }

    static func newTask(_ fields: SyncFields) -> NewTask {
        let title = retitled(fields.title.isEmpty ? "(untitled)" : fields.title,
                             adding: fields.tags.filter(Interchange.isTagName), removing: [])
        return NewTask(title: title, done: fields.done, due: fields.due,
                doneDate: fields.done ? fields.doneDay : nil, priority: fields.priority, notes: fields.notes)
    }

    /// A collection's folder name for a list file: its base name in lower case, letters, digits,
    /// `-` and `_` kept, anything else `-`.
    static func folderName(for path: String) -> String {
        let base = String(Path.name(of: path).dropLast(3)).lowercased()
        let kept = String(base.unicodeScalars.map { c -> Character in
            (c.value < 0x80 && (c.properties.isAlphabetic || ("0"..."9").contains(c))) || c == "-" || c == "_" ? Character(c) : "-"
        })
        let trimmed = String(kept.drop { $0 == "-" })
        return trimmed.isEmpty ? "list" : String(trimmed.prefix(100))
    }

    /// `#RRGGBB` for a list colour: a hex colour as written (3 digits doubled), or a named one.
    static func hexColor(_ color: String) -> String? {
        let named = ["red": "#ff3b30", "orange": "#ff9500", "yellow": "#ffcc00", "green": "#34c759", "blue": "#007aff",
                     "purple": "#af52de", "brown": "#a2845e", "gray": "#8e8e93", "grey": "#8e8e93", "pink": "#ff2d55"]
        let lower = color.lowercased()
        if let hex = named[lower] { return hex }
        let digits = Array(lower.utf8.dropFirst())
        guard lower.hasPrefix("#"), digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        if digits.count == 6 { return lower }
        if digits.count == 3 { return "#" + digits.map { String(repeating: String(UnicodeScalar($0)), count: 2) }.joined() }
        return nil
    }
}
