import TickFormat

// tick's configuration files: `${XDG_CONFIG_HOME:-~/.config}/tick/config` for the user, and
// `.tick/config` in the task folder (per clone, like `.git/config`), which wins. Each holds
// `key = value` lines; `#` starts a comment. The files are untrusted input: they are read without
// following symbolic links, only as regular files of a bounded size, and a line tick does not
// understand is a warning naming the file, the line and the key, never a failure.

/// The settings a run of tick takes from its configuration files, read once and passed down.
/// Command-line options and environment variables beat them; the caller applies that order.
public struct Settings: Sendable, Equatable {
    /// The list `tick add` uses without `--list` (`default-list`; tick's own default is Inbox).
    public var defaultList: String?
    /// Colour the output (`color`): `auto`, `always` or `never`.
    public var color: String?
    /// The minute after midnight that `tonight` names (`date.tonight`, `HH:MM`; tick's own is 18:00).
    public var tonight: Int?
    /// The minute after midnight that `eod` names (`date.end-of-day`, `HH:MM`; tick's own is 23:59).
    public var endOfDay: Int?
    /// Which number of a numeric date such as `12/24` is the month (`date.order`: `mdy` or `dmy`);
    /// unset, such a date is refused as ambiguous.
    public var dateOrder: DateOrder?
    /// Commit each change tick makes to a task folder kept in git (`autocommit`).
    public var autocommit: Bool?
    /// Whether completing a repeating task also keeps a completed copy (`recurrence.keep-history`,
    /// as `--keep-history` does; off by default).
    public var keepHistory = false
    /// The style of a new task in a list without tasks (`obsidian.new-task-style`: tick, emoji or
    /// dataview; FORMAT.md 11). A list with tasks gives its new tasks its own style.
    public var newTaskStyle: TaskStyle = .tick
    /// Whether a repeating task in the Tasks plugin's style moves on in place as tick's own do
    /// (`obsidian.recurrence = in-place`) instead of by the plugin's convention (`tasks`, the default).
    public var obsidianRecurrenceInPlace = false
    /// The Tasks plugin's global filter (`obsidian.global-filter`, a tag such as `#task`; FORMAT.md 11):
    /// with one, only checkbox lines that hold it are tasks. Nil (the default, or an empty value): every one is.
    public var globalFilter: GlobalFilter?
    /// The minute after midnight a date-only task comes due for `tick remind` (`remind.time`, `HH:MM`;
    /// tick's own is 09:00).
    public var remindTime: Int?
    /// The saved views (`view.NAME = QUERY`, `view.NAME.sort`, `view.NAME.group`), in the order of their
    /// first line; a later file's line for a name replaces that part of it.
    public var views: [SavedView] = []
    /// The vdir `tick vdir sync` syncs when it is given none (`vdir.path`; `~/` is the home folder).
    public var vdirPath: String?
    /// The lists `tick vdir sync` syncs, by name (`vdir.lists`, comma-separated); nil: every list.
    public var vdirLists: [String]?
    /// The vdirsyncer pair `tick vdir sync --vdirsyncer` and `tick sync` run (`vdir.pair`).
    public var vdirPair: String?
    /// The first day of the week (`week-start`): `monday` or `sunday`; nil when not set.
    public var weekStart: WeekStart?
    /// The weights of `tick pick` and of the urgency order of `tick status` (`pick.weights.NAME`).
    public var pickWeights = PickWeights.standard
    /// Where each key's value came from, `FILE:LINE`, for messages that mention it.
    public var origins: [String: String] = [:]
    /// Each key's value as written in the file it came from (`tick config` shows them).
    public var values: [String: String] = [:]

    public init(defaultList: String? = nil, color: String? = nil) {
        self.defaultList = defaultList
        self.color = color
    }
}

/// Reads the configuration files into `Settings`.
public enum Configuration {
    /// A key tick understands: its name and what its value may be.
    public struct Key: Sendable {
        public var name: String
        /// What the README's table says the value is.
        public var values: String
        /// Nil when `value` is fine, else what is expected instead.
        var check: @Sendable (String) -> String?
        var apply: @Sendable (inout Settings, String) -> Void
        /// What tick does when no file sets the key, as `tick config` shows it.
        public var fallback: String = ""
        /// Whether an empty value is a value (it turns the key off) rather than a mistake.
        var allowsEmpty = false
    }

    /// The key whose value is a tag: a `#` that starts its value is the tag's, not a comment.
    public static let globalFilterKey = "obsidian.global-filter"

    /// Every key, in the order of the README's table.
    public static let keys: [Key] = [
        Key(name: "default-list", values: "a list's name, file name or path",
            check: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "a list's name" : nil },
            apply: { $0.defaultList = $1 }, fallback: "Inbox"),
        Key(name: "color", values: "auto, always or never",
            check: { ["auto", "always", "never"].contains($0) ? nil : "auto, always or never" },
            apply: { $0.color = $1 }, fallback: "auto"),
        Key(name: "date.tonight", values: "a time HH:MM, from 00:00 to 23:59",
            check: { minutes(of: $0) == nil ? "a time HH:MM, from 00:00 to 23:59" : nil },
            apply: { $0.tonight = minutes(of: $1) }, fallback: "18:00"),
        Key(name: "date.end-of-day", values: "a time HH:MM, from 00:00 to 23:59",
            check: { minutes(of: $0) == nil ? "a time HH:MM, from 00:00 to 23:59" : nil },
            apply: { $0.endOfDay = minutes(of: $1) }, fallback: "23:59"),
        Key(name: "date.order", values: "mdy or dmy",
            check: { DateOrder(rawValue: $0) == nil ? "mdy or dmy" : nil },
            apply: { $0.dateOrder = DateOrder(rawValue: $1) }, fallback: ""),
        Key(name: "autocommit", values: "true or false",
            check: { ["true", "false"].contains($0) ? nil : "true or false" },
            apply: { $0.autocommit = $1 == "true" }, fallback: "false"),
        Key(name: "recurrence.keep-history", values: "true or false",
            check: { ["true", "false"].contains($0) ? nil : "true or false" },
            apply: { $0.keepHistory = $1 == "true" }, fallback: "false"),
        Key(name: globalFilterKey, values: "a tag such as #task, or nothing",
            check: { GlobalFilter.problem(with: $0) },
            apply: { $0.globalFilter = GlobalFilter($1) }, fallback: "", allowsEmpty: true),
        Key(name: "obsidian.new-task-style", values: "tick, emoji or dataview",
            check: { TaskStyle(rawValue: $0) == nil ? "tick, emoji or dataview" : nil },
            apply: { $0.newTaskStyle = TaskStyle(rawValue: $1) ?? .tick }, fallback: "tick"),
        Key(name: "obsidian.recurrence", values: "tasks or in-place",
            check: { ["tasks", "in-place"].contains($0) ? nil : "tasks or in-place" },
            apply: { $0.obsidianRecurrenceInPlace = $1 == "in-place" }, fallback: "tasks"),
        Key(name: "remind.time", values: "a time HH:MM, from 00:00 to 23:59",
            check: { minutes(of: $0) == nil ? "a time HH:MM, from 00:00 to 23:59" : nil },
            apply: { $0.remindTime = minutes(of: $1) }, fallback: "09:00"),
        Key(name: "vdir.path", values: "the vdir's folder (~/ for your home folder)",
            check: { $0.unicodeScalars.contains { $0.value < 0x20 } ? "a folder path" : nil },
            apply: { $0.vdirPath = $1.isEmpty ? nil : $1 }, fallback: "", allowsEmpty: true),
        Key(name: "vdir.lists", values: "list names, comma-separated (empty: every list)",
            check: { $0.unicodeScalars.contains { $0.value < 0x20 } ? "list names, comma-separated" : nil },
            apply: { settings, value in
                let names = value.split(separator: ",").map { String($0).trimmingCharacters(in: " ") }.filter { !$0.isEmpty }
                settings.vdirLists = names.isEmpty ? nil : names
            }, fallback: "", allowsEmpty: true),
        Key(name: "vdir.pair", values: "a vdirsyncer pair's name (letters, digits, - and _)",
            check: { value in
                value.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
                    ? nil : "a vdirsyncer pair's name (letters, digits, - and _)"
            },
            apply: { $0.vdirPair = $1.isEmpty ? nil : $1 }, fallback: "", allowsEmpty: true),
        Key(name: "week-start", values: "monday or sunday",
            check: { WeekStart(rawValue: $0) == nil ? "monday or sunday" : nil },
            apply: { $0.weekStart = WeekStart(rawValue: $1) }, fallback: "monday"),
        pickWeight("open", \.base),
        pickWeight("overdue", \.overdue),
        pickWeight("overdue-per-day", \.perDayOverdue),
        pickWeight("overdue-per-day-max", \.overdueDaysCap),
        pickWeight("today", \.dueToday),
        pickWeight("soon", \.dueSoon),
        pickWeight("low", \.priority[Priority.low.rawValue]),
        pickWeight("medium", \.priority[Priority.medium.rawValue]),
        pickWeight("high", \.priority[Priority.high.rawValue]),
        pickWeight("flagged", \.flagged),
    ]

    /// The key `pick.weights.NAME`: a whole number from 0 to `PickWeights.maximum` for the weight at
    /// `field`, whose value in `PickWeights.standard` is the fallback.
    private static func pickWeight(_ name: String, _ field: WritableKeyPath<PickWeights, Int> & Sendable) -> Key {
        let expected = "a whole number from 0 to \(PickWeights.maximum)"
        return Key(name: "pick.weights." + name, values: expected,
                   check: { weight(of: $0) == nil ? expected : nil },
                   apply: { settings, value in if let weight = weight(of: value) { settings.pickWeights[keyPath: field] = weight } },
                   fallback: String(PickWeights.standard[keyPath: field]))
    }

    /// A weight: digits only, from 0 to `PickWeights.maximum`; else nil.
    static func weight(of text: String) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ ("0"..."9").contains($0) }),
              let value = Int(text), value <= PickWeights.maximum else { return nil }
        return value
    }

    /// The key named `name`, or nil.
    public static func key(named name: String) -> Key? { keys.first { $0.name == name } }

    /// Nil when `value` is a good value of `key`, else what is expected instead.
    public static func problem(with value: String, for key: Key) -> String? {
        value.isEmpty ? (key.allowsEmpty ? nil : key.values) : key.check(value)
    }

    /// Minutes after midnight for `H:MM` or `HH:MM` from 0:00 to 23:59, else nil.
    static func minutes(of text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// A file larger than this is not a configuration file: it is ignored, with a warning.
    public static let maxSize = 64 * 1024

    /// The user's file: `$XDG_CONFIG_HOME/tick/config` when that is an absolute path, else
    /// `$HOME/.config/tick/config`; nil without either.
    public static func userFile(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return Path.join(xdg, "tick/config") }
        if let home = environment["HOME"], home.hasPrefix("/") { return Path.join(home, ".config/tick/config") }
        return nil
    }

    /// The task folder's file: `.tick/config`.
    public static func folderFile(in folder: String) -> String {
        Path.join(Path.join(folder, FolderLocation.stateFolderName), "config")
    }

    /// Reads `files` in order (a later file's keys win) into settings, with a warning for each
    /// file or line that tick ignored. A missing file is no warning.
    public static func read(_ files: [String], fileSystem: any FileSystem) -> (settings: Settings, warnings: [String]) {
        var settings = Settings()
        var warnings: [String] = []
        for file in files {
            guard let bytes = load(file, fileSystem: fileSystem, warnings: &warnings) else { continue }
            parse(bytes, file: file, into: &settings, warnings: &warnings)
        }
        return (settings, warnings)
    }

    /// The bytes of a regular file, read without following a symbolic link; nil (with a
    /// warning, unless the file is simply missing) otherwise.
    private static func load(_ file: String, fileSystem: any FileSystem, warnings: inout [String]) -> [UInt8]? {
        // A file tick cannot even look at (its folder unreadable) counts as missing: the command
        // says what it cannot read when it needs it.
        guard let status = try? fileSystem.status(file, followSymlinks: false) else { return nil }
        switch status.kind {
        case .file: break
        case .symlink:
            warnings.append("\(file): a symbolic link, which tick does not follow for its configuration; ignored")
            return nil
        default:
            warnings.append("\(file): not a regular file; ignored")
            return nil
        }
        guard status.size <= maxSize else {
            warnings.append("\(file): larger than \(maxSize / 1024) KiB; ignored")
            return nil
        }
        do {
            let bytes = try fileSystem.readFile(file)
            guard bytes.count <= maxSize else {
                warnings.append("\(file): larger than \(maxSize / 1024) KiB; ignored")
                return nil
            }
            return bytes
        } catch let error as FileSystemError {
            warnings.append("\(file): \(error.reason); ignored")
            return nil
        } catch {
            return nil
        }
    }

    /// `key = value` lines; blank lines and lines starting with `#` are skipped, and ` #` after a
    /// value starts a comment. Spaces around keys and values do not count.
    static func parse(_ bytes: [UInt8], file: String, into settings: inout Settings, warnings: inout [String]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (index, raw) in lines.enumerated() {
            let place = "\(file):\(index + 1)"
            if let warning = SavedView.parse(line: Substring(raw), place: place, into: &settings) {
                if !warning.isEmpty { warnings.append(warning) }
                continue
            }
            var line = Substring(raw)
            if let comment = commentStart(line, except: tagValueStart(line)) { line = line[..<comment] }
            let content = trimmed(line)
            if content.isEmpty { continue }
            guard let eq = content.firstIndex(of: "=") else {
                warnings.append("\(place): not a 'key = value' line; ignored")
                continue
            }
            let name = trimmed(content[..<eq]), value = trimmed(content[content.index(after: eq)...])
            guard let key = keys.first(where: { $0.name == name }) else {
                warnings.append("\(place): unknown key '\(name.escapingNonPrinting)'; ignored")
                continue
            }
            if let expected = problem(with: value, for: key) {
                warnings.append("\(place): bad value '\(value.escapingNonPrinting)' for \(name) (expected \(expected)); ignored")
                continue
            }
            key.apply(&settings, value)
            settings.origins[name] = place
            settings.values[name] = value
        }
    }

    /// Where a comment starts: `#` first on the line, or after a space or tab; never at `except`.
    private static func commentStart(_ line: Substring, except: Substring.Index? = nil) -> Substring.Index? {
        var previous: Character? = nil
        for i in line.indices {
            let c = line[i]
            if c == "#", i != except, previous == nil || previous == " " || previous == "\t" || trimmed(line[..<i]).isEmpty { return i }
            previous = c
        }
        return nil
    }

    /// On a line setting `obsidian.global-filter`, the `#` that starts its value when a tag's letters
    /// follow it (the tag's own `#`), if any.
    private static func tagValueStart(_ line: Substring) -> Substring.Index? {
        guard let eq = line.firstIndex(of: "="), trimmed(line[..<eq]) == globalFilterKey,
              let start = line[line.index(after: eq)...].firstIndex(where: { $0 != " " && $0 != "\t" }),
              line[start] == "#", let next = line[line.index(after: start)...].first,
              !next.isWhitespace, next != "#" else { return nil }
        return start
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text).trimmingInvisibleSpace()
    }
}

extension String {
    /// The text without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
