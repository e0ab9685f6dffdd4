import TickFormat

/// Taskwarrior's JSON (what `task export` writes and `task import` reads), both ways. The README's
/// mapping table says what happens to every field.
public enum Taskwarrior {
    /// Fields tick neither keeps nor needs to: Taskwarrior makes them again on import.
    static let regenerated: Set<String> = ["id", "entry", "modified", "urgency", "mask", "imask", "uuid", "rtype"]

    // MARK: - Reading

    /// The tasks of a `task export` file: a JSON array of task objects, or one object a line.
    /// Deleted tasks, and the instances Taskwarrior generated from a repeating task (which becomes
    /// one repeating tick task), are skipped and counted. `keepIDs` writes each uuid as an `id:`.
    public static func read(_ bytes: [UInt8], list: String?, keepIDs: Bool, now: Now) throws(InterchangeError) -> ImportReading {
        var reader = JSONReader(bytes)
        var records: [(JSON, Int)] = []
        if reader.atEnd { return ImportReading() }
        let first = try reader.value()
        if case .array(let items) = first {
            guard reader.atEnd else { throw InterchangeError("line \(reader.line(at: reader.offset))", "not JSON: text after the array") }
            records = items.enumerated().map { ($1, $0 + 1) }
        } else {
            records.append((first, 1))
            while !reader.atEnd { records.append((try reader.value(), records.count + 1)) }
        }
        var reading = ImportReading()
        for (record, number) in records {
            if let task = try task(record, place: "record \(number)", list: list, keepIDs: keepIDs, now: now, reading: &reading) {
                reading.tasks.append(task)
            }
        }
        return reading
    }

    private static func task(_ record: JSON, place: String, list fixedList: String?, keepIDs: Bool, now: Now,
                             reading: inout ImportReading) throws(InterchangeError) -> ImportedTask? {
        guard case .object(let members) = record else { throw InterchangeError(place, "not a task object") }
        func text(_ key: String) throws(InterchangeError) -> String? {
            guard let value = record[key] else { return nil }
            guard let s = value.string else { throw InterchangeError(place, "\(key) is not a string") }
            return s
        }
        let status = try text("status") ?? "pending"
        guard ["pending", "waiting", "completed", "deleted", "recurring"].contains(status) else {
            throw InterchangeError(place, "unknown status '\(status.escapingNonPrinting)'")
        }
        if status == "deleted" { reading.skipped["deleted", default: 0] += 1; return nil }
        if record["parent"] != nil, status != "recurring" {
            reading.skipped["instances of a repeating task", default: 0] += 1
            return nil
        }
        guard let description = try text("description") else { throw InterchangeError(place, "no description") }
        if description.contains(where: { $0 == "\n" || $0 == "\r" }) {
            throw InterchangeError(place, "a description of several lines")
        }
        var words = description.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var notes: [String] = []
        var list = fixedList
        if list == nil, let project = try text("project"), !project.isEmpty { list = project }
        if let due = try text("due") {
            guard let local = localDate(due) else { throw InterchangeError(place, "due '\(due.escapingNonPrinting)' is not a date YYYYMMDDTHHMMSSZ") }
            words.append("due:" + (local.minutes == 0 ? "\(local.day)" : "\(DueDate(day: local.day, minutes: local.minutes))"))
        }
        if let priority = try text("priority") {
            switch priority {
            case "H": words.append("!!!")
            case "M": words.append("!!")
            case "L": words.append("!")
            default: throw InterchangeError(place, "priority '\(priority.escapingNonPrinting)' is not H, M or L")
            }
        }
        var flagged = false
        if let tags = record["tags"] {
            guard case .array(let items) = tags else { throw InterchangeError(place, "tags is not an array") }
            var odd: [String] = []
            for item in items {
                guard let tag = item.string else { throw InterchangeError(place, "a tag is not a string") }
                if tag == "next" || tag == "flag" { flagged = true }
                else if Interchange.isTagName(tag) {
                    if !words.contains("#" + tag) { words.append("#" + tag) }
                } else { odd.append(tag) }
            }
            if !odd.isEmpty {
                notes.append("Taskwarrior tags: " + odd.joined(separator: " "))
                reading.unmapped["tags that are not tick tags (kept in the notes)", default: 0] += 1
            }
        }
        if flagged { words.append("#flag") }
        if let recur = try text("recur") {
            if let rule = rule(recur), record["due"] != nil {
                words.append("rec:+" + rule)
                if let until = try text("until"), let local = localDate(until) { words.append("until:\(local.day)") }
            } else {
                notes.append("Taskwarrior recur: " + recur)
                reading.unmapped["recur without a tick rule (kept in the notes)", default: 0] += 1
            }
        }
        var id: String? = nil
        if keepIDs, let uuid = try text("uuid") {
            guard isValidTaskID(uuid) else { throw InterchangeError(place, "uuid '\(uuid.escapingNonPrinting)' cannot be an id") }
            id = uuid
        }
        if let annotations = record["annotations"] {
            guard case .array(let items) = annotations else { throw InterchangeError(place, "annotations is not an array") }
            for item in items {
                guard let text = item["description"]?.string else { throw InterchangeError(place, "an annotation without a description") }
                // An annotation made with the task (as tick's export writes an undated note line) is not dated.
                let entry = item["entry"]?.string
                let day = entry == record["entry"]?.string ? "" : entry.flatMap(localDate).map { "\($0.day) " } ?? ""
                for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    notes.append((i == 0 ? day : "") + line)
                }
            }
        }
        var doneDate: Day? = nil
        if status == "completed", let end = try text("end") {
            guard let local = localDate(end) else { throw InterchangeError(place, "end '\(end.escapingNonPrinting)' is not a date YYYYMMDDTHHMMSSZ") }
            doneDate = local.day
        }
        for (key, _) in members where !handled.contains(key) && !regenerated.contains(key) {
            if key == "until", record["recur"] != nil { continue }
            reading.unmapped[key, default: 0] += 1
        }
        let task = try Interchange.task(fromLine: words, done: status == "completed", doneDate: doneDate,
                                        notes: notes.joined(separator: "\n"), now: now, place: place)
        return ImportedTask(id: id, list: list, task: task, place: place)
    }

    static let handled: Set<String> = ["status", "description", "project", "due", "priority", "tags", "recur",
                                       "annotations", "end", "parent"]

    /// A Taskwarrior recurrence as a tick rule without its mode (`1w`), when one says the same.
    static func rule(_ recur: String) -> String? {
        let named = ["daily": "1d", "day": "1d", "weekly": "1w", "week": "1w", "biweekly": "2w", "fortnight": "2w",
                     "monthly": "1m", "month": "1m", "quarterly": "3m", "yearly": "1y", "annual": "1y", "year": "1y",
                     "weekdays": "1b"]
        if let rule = named[recur] { return rule }
        let digits = recur.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), n > 0, n < 10_000 else { return nil }
        let units = ["d": "d", "day": "d", "days": "d", "w": "w", "wk": "w", "wks": "w", "week": "w", "weeks": "w",
                     "mo": "m", "mos": "m", "month": "m", "months": "m", "q": "q", "y": "y", "yr": "y", "yrs": "y",
                     "year": "y", "years": "y"]
        guard let unit = units[String(recur.dropFirst(digits.count))] else { return nil }
        return unit == "q" ? "\(n * 3)m" : "\(n)\(unit)"
    }

    /// `20260314T230000Z` as a local day and minute.
    static func localDate(_ text: String) -> (day: Day, minutes: Int)? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") else { return nil }
        func n(_ r: Range<Int>) -> Int? { Int(String(decoding: b[r], as: UTF8.self)) }
        guard let y = n(0..<4), let mo = n(4..<6), let d = n(6..<8), let h = n(9..<11), let mi = n(11..<13), let s = n(13..<15),
              Day(year: y, month: mo, day: d) != nil, h < 24, mi < 60, s < 61,
              let seconds = LocalTimeZone.utcSeconds(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        else { return nil }
        return LocalTimeZone.local(fromUTC: seconds)
    }

    // MARK: - Writing

    /// A JSON array that `task import` reads, one task object a line, in folder order.
    public static func render(_ tasks: [TaskFacts], now: Now) -> (text: String, summary: ExportSummary) {
        var summary = ExportSummary()
        var lines: [String] = []
        var seen: [String: Int] = [:]
        for task in tasks {
            summary.tasks += 1
            TaskFields.countLosses(task, in: .taskwarrior, into: &summary)
            // Tasks that share a ref (same title and fields in one list) are told apart by their turn.
            let key = task.listPath + "\u{0}" + task.ref
            let turn = seen[key, default: 0]
            seen[key] = turn + 1
            lines.append(record(task, turn: turn, now: now, summary: &summary).text)
        }
        return ("[\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "]\n", summary)
    }

    static func record(_ task: TaskFacts, turn: Int, now: Now, summary: inout ExportSummary) -> JSON {
        let info = task.info
        let nowStamp = stamp(day: now.day, minutes: now.minutes)
        var members: [(key: String, value: JSON)] = []
        let uuid = info.id.flatMap { isUUID($0) ? $0.lowercased() : nil } ?? derivedUUID(task, turn: turn)
        members.append(("uuid", .string(uuid)))
        var words = info.title.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var entry = nowStamp
        if let i = words.firstIndex(where: { $0.hasPrefix("created:") && Day(iso: String($0.dropFirst(8))) != nil }) {
            entry = stamp(day: Day(iso: String(words[i].dropFirst(8)))!, minutes: 0)
            words.remove(at: i)
        }
        // The tags go into `tags` only, as the todo.txt export writes them as contexts only: a
        // Taskwarrior → tick → Taskwarrior round trip keeps the description.
        words.removeAll { word in
            word.hasPrefix("#") && word.count > 1 && info.tags.contains(where: { word.dropFirst().hasPrefix($0) })
        }
        if let id = info.id, !isUUID(id) { words.append("id:" + id) }
        if let parent = task.parentRef { words.append("parent:" + parent) }
        members.append(("description", .string(words.joined(separator: " "))))
        members.append(("status", .string(info.done ? "completed" : "pending")))
        members.append(("entry", .string(entry)))
        if info.done { members.append(("end", .string(info.doneDate.map { stamp(day: $0, minutes: 0) } ?? nowStamp))) }
        members.append(("project", .string(task.listName)))
        if info.priority != .none { members.append(("priority", .string(["L", "M", "H"][info.priority.rawValue - 1]))) }
        if let due = info.due { members.append(("due", .string(stamp(day: due.day, minutes: due.minutes ?? 0)))) }
        var tags = info.tags
        if info.flagged { tags.append("next") }
        if !tags.isEmpty { members.append(("tags", .array(tags.map(JSON.string)))) }
        if let rule = info.recurrence {
            if let recur = recur(rule) {
                members.append(("recur", .string(recur)))
                if let until = info.until { members.append(("until", .string(stamp(day: until, minutes: 0)))) }
            } else {
                summary.lost["rules Taskwarrior cannot repeat by (in an annotation)", default: 0] += 1
            }
        }
        var annotations: [JSON] = []
        for line in task.notes.split(separator: "\n", omittingEmptySubsequences: true) {
            var text = String(line)
            var when = entry
            let trimmed = text.trimmingInvisibleSpace()
            if let day = Day(iso: String(trimmed.prefix(10))), trimmed.count > 11, trimmed.dropFirst(10).first == " " {
                when = stamp(day: day, minutes: 0)
                text = String(trimmed.dropFirst(11))
            } else {
                text = trimmed
            }
            if text.isEmpty { continue }
            annotations.append(.object([("entry", .string(when)), ("description", .string(text))]))
        }
        if let rule = info.recurrence, recur(rule) == nil {
            annotations.append(.object([("entry", .string(entry)), ("description", .string("tick rule: " + rule.token))]))
        }
        if !annotations.isEmpty { members.append(("annotations", .array(annotations))) }
        return .object(members)
    }

    /// The Taskwarrior recurrence for a tick rule (Taskwarrior counts from the due date, as `+` does).
    static func recur(_ rule: RecurrenceRule) -> String? {
        let text = rule.description.drop { $0 == "+" }
        guard let unit = text.last, let n = Int(text.dropLast()) else { return nil }
        switch unit {
        case "d": return "\(n)d"
        case "w": return "\(n)w"
        case "m": return "\(n)mo"
        case "y": return "\(n)y"
        case "b": return n == 1 ? "weekdays" : nil
        default: return nil
        }
    }

    /// `YYYYMMDDTHHMMSSZ` of a local day and minute.
    static func stamp(day: Day, minutes: Int) -> String {
        guard let seconds = LocalTimeZone.seconds(day: day, minutes: minutes),
              let (y, mo, d, h, mi, s) = LocalTimeZone.utcFields(seconds) else { return "19700101T000000Z" }
        func pad(_ n: Int, _ width: Int) -> String { let s = String(n); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return pad(y, 4) + pad(mo, 2) + pad(d, 2) + "T" + pad(h, 2) + pad(mi, 2) + pad(s, 2) + "Z"
    }

    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// A uuid made from the task's list and ref, so that exporting again gives the same one.
    static func derivedUUID(_ task: TaskFacts, turn: Int) -> String {
        func fnv(_ text: String, _ seed: UInt64) -> UInt64 {
            var h: UInt64 = 0xcbf29ce484222325 ^ seed
            for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100000001b3 }
            return h
        }
        let key = task.listPath + "\u{0}" + task.ref + (turn == 0 ? "" : "\u{0}\(turn)")
        let a = fnv(key, 1), b = fnv(key, 2)
        func hex(_ n: UInt64, _ digits: Int) -> String {
            let s = String(n, radix: 16)
            return String(repeating: "0", count: max(0, digits - s.count)) + s.suffix(digits)
        }
        let h = hex(a, 16), l = hex(b, 16)
        let version = "4" + l.dropFirst(1).prefix(3)
        let variant = "8" + l.dropFirst(4).prefix(3)
        return h.prefix(8) + "-" + h.dropFirst(8).prefix(4) + "-" + version + "-" + variant + "-" + l.suffix(12)
    }
}
