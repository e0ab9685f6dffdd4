import TickFormat

// The fields `tick vdir sync` merges, read from a VTODO or from a task, and the object written
// back: tick's VTODO with what the phone keeps that tick does not model.

/// A task's fields as one side of a sync holds them.
public struct SyncFields: Equatable, Sendable {
    public var title = ""
    public var notes = ""
    public var done = false
    public var doneDay: Day? = nil
    public var due: DueDate? = nil
    public var priority = Priority.none
    /// `X-TICK-REC` as written, or nil.
    public var rule: String? = nil
    /// The tags: `CATEGORIES` (every one, in order), less the list's name (`withoutList`).
    public var tags: [String] = []
    /// `RRULE` as written (tick's side: as the export writes it), or nil.
    public var rrule: String? = nil
    /// The `TZID` of a date-time that names no zone tick knows (nor a `VTIMEZONE` of a fixed
    /// offset): taken at its clock time, as a floating time, and reported.
    public var unknownZone: String? = nil
    /// The day of `DTSTART` (tick's side: as the export writes it), or nil.
    public var start: Day? = nil
    /// Whether `DTSTART` comes after `STATUS`: in an object tick wrote, the phone's own `DTSTART`,
    /// kept as it came on a task without a start date, never tick's (which precedes `DUE`).
    public var startKept = false
    /// The UID of `RELATED-TO` with `RELTYPE=PARENT` (the default type), or nil. Not merged as a
    /// field: a change of it on the phone is reported, and tick's structure kept.
    public var parent: String? = nil

    public init() {}

    /// The fields merged one by one.
    public enum Field: String, CaseIterable, Sendable {
        case completion, title, tags, notes, due, start, priority, repeats = "rule"
    }

    /// The fields with the list's name (which the export adds to `CATEGORIES`) out of the tags.
    public func withoutList(_ name: String) -> SyncFields {
        var fields = self
        fields.tags.removeAll { $0.lowercased() == name.lowercased() }
        return fields
    }

    /// Whether the two hold the same `field` (a completion date counts only when both have one).
    public func same(_ field: Field, as other: SyncFields) -> Bool {
        switch field {
        case .completion: return done == other.done && (doneDay == nil || other.doneDay == nil || doneDay == other.doneDay)
        case .title: return title == other.title
        case .tags: return Set(tags) == Set(other.tags)
        case .notes: return notes == other.notes
        case .due: return due == other.due
        case .start: return start == other.start
        case .priority: return priority == other.priority
        case .repeats: return rrule.map(Self.normalized) == other.rrule.map(Self.normalized)
        }
    }

    /// `field`'s value in words, for a report.
    public func words(_ field: Field) -> String {
        switch field {
        case .completion: return done ? "completed" + (doneDay.map { " on \($0)" } ?? "") : "open"
        case .title: return "\"\(title)\""
        case .tags: return tags.isEmpty ? "no tags" : tags.map { "#" + $0 }.joined(separator: " ")
        case .notes: return notes.isEmpty ? "no notes" : "\"\(notes)\""
        case .due: return due.map { "due \($0)" } ?? "no due date"
        case .start: return start.map { "start \($0)" } ?? "no start date"
        case .priority: return priority.token ?? "no priority"
        case .repeats: return rrule.map { "RRULE:" + $0 } ?? "no rule"
        }
    }
}

extension SyncFields {
    /// The fields of the main VTODO of a calendar (`COMPLETED`, and a UTC or `TZID=` `DUE`, in local
    /// time; `zones` the calendar's `VTIMEZONE`s).
    public init(_ todo: VComponent, zones: [VComponent] = []) {
        self.init()
        title = todo.first("SUMMARY").map { VObject.text($0.value) } ?? ""
        notes = todo.first("DESCRIPTION").map { VObject.text($0.value) } ?? ""
        done = todo.first("STATUS")?.value.uppercased() == "COMPLETED" || todo.first("COMPLETED") != nil
        var unknown: String?
        if done, let completed = todo.first("COMPLETED") { doneDay = Self.moment(completed, zones: zones, unknown: &unknown)?.day }
        due = todo.first("DUE").flatMap { Self.moment($0, zones: zones, unknown: &unknown) }
        unknownZone = unknown
        var ignored: String?
        start = todo.first("DTSTART").flatMap { Self.moment($0, zones: zones, unknown: &ignored) }?.day
        if let at = todo.properties.firstIndex(where: { $0.name == "DTSTART" }),
           let status = todo.properties.firstIndex(where: { $0.name == "STATUS" }) {
            startKept = at > status
        }
        parent = todo.properties.first { property in
            property.name == "RELATED-TO" && (property.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
        }.map { VObject.text($0.value) }
        if let value = todo.first("PRIORITY").flatMap({ Int($0.value.trimmingCharacters(in: " ")) }) {
            switch value {
            case 1...4: priority = .high
            case 5: priority = .medium
            case 6...9: priority = .low
            default: priority = .none
            }
        }
        rule = todo.first("X-TICK-REC").map { VObject.text($0.value) }
        rrule = todo.first("RRULE")?.value
        for property in todo.properties where property.name == "CATEGORIES" {
            tags += Self.textList(property.value).filter { !$0.isEmpty }
        }
    }

    /// A DATE (`YYYYMMDD`), a floating date-time (its clock time, as written), or a UTC (`…Z`) or
    /// `TZID=` date-time in local time. A `TZID` is an IANA name (`Europe/Berlin`), else the
    /// `X-LIC-LOCATION` of its `VTIMEZONE` or the name that ends a `/mozilla.org/…/` one, else a
    /// `VTIMEZONE` of one fixed offset; any other is taken at its clock time and set in `unknown`.
    static func moment(_ property: VProperty, zones: [VComponent], unknown: inout String?) -> DueDate? {
        let value = Array(property.value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= value.count, value[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return value[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(4..<6), let dayOfMonth = number(6..<8),
              let day = Day(year: year, month: month, day: dayOfMonth) else { return nil }
        if value.count == 8 { return DueDate(day: day) }
        guard value.count >= 15, value[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
              number(13..<15) != nil, hour < 24, minute < 60 else { return nil }
        if value.count == 16, value[15] == UInt8(ascii: "Z") {
            guard let seconds = LocalTimeZone.utcSeconds(year: year, month: month, day: dayOfMonth, hour: hour,
                                                         minute: minute, second: 0),
                  let local = LocalTimeZone.local(fromUTC: seconds) else { return nil }
            return DueDate(day: local.day, minutes: local.minutes)
        }
        guard value.count == 15 else { return nil }
        guard let tzid = property.parameter("TZID"), !tzid.isEmpty else { return DueDate(day: day, minutes: hour * 60 + minute) }
        let seconds = number(13..<15) ?? 0
        let utc: Int?
        if let zone = Self.zoneName(tzid, zones: zones) {
            utc = LocalTimeZone.seconds(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: seconds, zone: zone)
        } else if let offset = Self.fixedOffset(tzid, zones: zones),
                  let wall = LocalTimeZone.utcSeconds(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: seconds) {
            utc = wall - offset
        } else {
            utc = nil
        }
        guard let utc, let local = LocalTimeZone.local(fromUTC: utc) else {
            unknown = tzid
            return DueDate(day: day, minutes: hour * 60 + minute)
        }
        return DueDate(day: local.day, minutes: local.minutes)
    }

    /// An `RRULE` value compared by its parts: upper case, sorted, `INTERVAL=1` and `WKST` left out.
    static func normalized(_ rule: String) -> [String] {
        rule.uppercased().split(separator: ";").map(String.init).filter { $0 != "INTERVAL=1" && !$0.hasPrefix("WKST=") }.sorted()
    }

    /// The `rec:` rule and `until:` day an `RRULE` states, in `mode`, when tick can write it: `FREQ`
    /// `DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY` with an `INTERVAL` up to 999, or `FREQ=WEEKLY;BYDAY=
    /// MO,TU,WE,TH,FR` (every business day); an `UNTIL` date or date-time. Nil for any other part.
    static func recurrence(_ rrule: String, mode: RecurrenceRule.Mode) -> (rule: RecurrenceRule, until: Day?)? {
        var parts: [String: String] = [:]
        for part in normalized(rrule) {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, parts[pair[0]] == nil else { return nil }
            parts[pair[0]] = pair[1]
        }
        let interval = parts.removeValue(forKey: "INTERVAL").map { Int($0) } ?? 1
        guard let interval, (1...RecurrenceRule.maximumCount).contains(interval), let frequency = parts.removeValue(forKey: "FREQ")
        else { return nil }
        var until: Day?
        if let value = parts.removeValue(forKey: "UNTIL") {
            let digits = Array(value.utf8.prefix(8))
            guard digits.count == 8, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  let y = Int(String(decoding: digits[0..<4], as: UTF8.self)), let m = Int(String(decoding: digits[4..<6], as: UTF8.self)),
                  let d = Int(String(decoding: digits[6..<8], as: UTF8.self)), let day = Day(year: y, month: m, day: d) else { return nil }
            until = day
        }
        var unit: String
        switch frequency {
        case "DAILY": unit = "d"
        case "WEEKLY": unit = "w"
        case "MONTHLY": unit = "m"
        case "YEARLY": unit = "y"
        default: return nil
        }
        if let days = parts.removeValue(forKey: "BYDAY") {
            guard days == "MO,TU,WE,TH,FR", frequency == "WEEKLY", interval == 1 else { return nil }
            unit = "b"
        }
        guard parts.isEmpty, let rule = RecurrenceRule(value: mode.prefix + String(interval) + unit) else { return nil }
        return (rule, until)
    }

    /// A TEXT list: values split at unescaped commas, each unescaped.
    static func textList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in value {
            if escaped {
                current.append("\\")
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                parts.append(VObject.text(current))
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(VObject.text(current))
        return parts
    }

    /// The IANA zone a `TZID` stands for, when the system's database has it.
    static func zoneName(_ tzid: String, zones: [VComponent]) -> String? {
        var candidates = [tzid]
        if let zone = zones.first(where: { $0.first("TZID")?.value == tzid }), let location = zone.first("X-LIC-LOCATION") {
            candidates.append(VObject.text(location.value))
        }
        // Mozilla's old form: /mozilla.org/20050126_1/Europe/Berlin.
        if tzid.hasPrefix("/") {
            let parts = tzid.split(separator: "/")
            if parts.count > 2 { candidates.append(parts.dropFirst(2).joined(separator: "/")) }
        }
        return candidates.first { LocalTimeZone.seconds(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0, zone: $0) != nil }
    }

    /// The offset from UTC in seconds of a `VTIMEZONE` whose every rule has one `TZOFFSETTO`.
    static func fixedOffset(_ tzid: String, zones: [VComponent]) -> Int? {
        guard let zone = zones.first(where: { $0.first("TZID")?.value == tzid }) else { return nil }
        let offsets = Set(zone.components.compactMap { $0.first("TZOFFSETTO").flatMap { offset($0.value) } })
        guard offsets.count == 1, zone.components.allSatisfy({ $0.first("TZOFFSETTO").flatMap { offset($0.value) } != nil })
        else { return nil }
        return offsets.first
    }

    /// `+HHMM`, `-HHMM` or `+HHMMSS` in seconds.
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - 0x30) }
        let hours = digits[0] * 10 + digits[1], minutes = digits[2] * 10 + digits[3]
        let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        return bytes[0] == UInt8(ascii: "-") ? -total : total
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// One vdir file read back: its calendar, the main VTODO and what tick keeps of it.
public struct VdirObject: Sendable {
    public var calendar: VComponent
    /// The VTODO without `RECURRENCE-ID`.
    public var todo: VComponent
    public var uid: String

    /// The properties tick writes itself; every other one is the phone's, kept as it came.
    static let ticksProperties: Set<String> = [
        "UID", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "SUMMARY", "DESCRIPTION", "DTSTART", "DUE", "DURATION",
        "RRULE", "PRIORITY", "STATUS", "PERCENT-COMPLETE", "COMPLETED", "CATEGORIES", "RELATED-TO",
    ]

    /// Reads a vdir file: one VCALENDAR whose VTODOs all have one UID, one of them without
    /// `RECURRENCE-ID`. Bare LF line ends are taken as CRLF.
    public init(_ bytes: [UInt8]) throws(VObjectError) {
        let calendar = try VObject.parse(Self.crlf(bytes))
        let todos = calendar.components.filter { $0.name == "VTODO" }
        let uids = Set(todos.map { $0.first("UID")?.value ?? "" })
        guard !todos.isEmpty else { throw VObjectError(message: "it holds no VTODO") }
        guard uids.count == 1, let uid = uids.first, !uid.isEmpty else {
            throw VObjectError(message: uids.contains("") ? "a VTODO has no UID" : "it holds VTODOs of \(uids.count) UIDs")
        }
        let main = todos.filter { $0.first("RECURRENCE-ID") == nil }
        guard main.count == 1 else { throw VObjectError(message: "it holds \(main.count) VTODOs without RECURRENCE-ID") }
        self.calendar = calendar
        self.todo = main[0]
        self.uid = uid
    }

    public var fields: SyncFields { SyncFields(todo, zones: calendar.components.filter { $0.name == "VTIMEZONE" }) }

    /// Whether the phone gave the task alarms of its own.
    public var hasAlarms: Bool { todo.components.contains { $0.name == "VALARM" } }

    /// The lines tick keeps inside its VTODO: the phone's own properties and subcomponents.
    public var keptInside: [UInt8] {
        var out: [UInt8] = []
        for property in todo.properties
        where !Self.ticksProperties.contains(property.name) && !property.name.hasPrefix("X-TICK-") {
            out += property.raw
        }
        for component in todo.components { out += component.raw }
        return out
    }

    /// The other components of the calendar, kept after tick's VTODO: overrides of one occurrence
    /// (`RECURRENCE-ID`) and time zones.
    public var keptAfter: [UInt8] {
        var out: [UInt8] = []
        for component in calendar.components where component.name != "VTODO" || component.first("RECURRENCE-ID") != nil {
            out += component.raw
        }
        return out
    }

    /// The bytes with every bare LF made CRLF, and a final line end added when missing.
    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var previous: UInt8 = 0
        for b in bytes {
            if b == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(b)
            previous = b
        }
        if !out.isEmpty, out.last != 0x0A { out += [0x0D, 0x0A] }
        return out
    }

    /// tick's object for `todo`, holding what `phone` keeps: its properties and alarms inside the
    /// VTODO (then tick adds no alarm of its own), its overrides and time zones after it.
    /// With `keepingStart`, the phone's `DTSTART` is kept too, where tick writes none.
    public static func render(_ todo: CalendarTodo, keeping phone: VdirObject?, keepingStart: Bool = false) -> [UInt8] {
        var todo = todo
        if phone?.hasAlarms == true { todo.alarm = false }
        var out = ICalendar.single(todo)
        guard let phone else { return out }
        var inside = phone.keptInside
        if keepingStart, ICalendar.startLine(todo) == nil, let start = phone.todo.first("DTSTART") { inside = start.raw + inside }
        let endTodo = Array("END:VTODO\r\n".utf8)
        if let at = lastRange(of: endTodo, in: out) { out.insert(contentsOf: inside, at: at) }
        let endCalendar = Array("END:VCALENDAR\r\n".utf8)
        if let at = lastRange(of: endCalendar, in: out) { out.insert(contentsOf: phone.keptAfter, at: at) }
        return out
    }

    private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var i = bytes.count - needle.count
        while i >= 0 {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }
}
