import Dispatch
import TickFormat

// Naming things: what a user's REF, list name or title resolves to in a Library (README "Naming
// tasks"); the refs themselves are Refs.swift's and RefIndex.swift's.

extension Library {

    /// The task a user's REF names (README "Naming tasks"), ignoring whitespace around it.
    ///
    /// The candidates are the tasks whose ref starts with the text (3 to 14 symbols, any case) and the tasks
    /// whose title is the text, ignoring case: one candidate is found, several are ambiguous. A text that
    /// also starts a retired ref is never found: it may have been shown for a task that is gone. Only when
    /// there is no candidate and no retired ref does a part of a title count, when one task has it.
    /// `preferring` (for `done`: open tasks) settles an ambiguity when exactly one candidate satisfies it.
    public func resolve(ref text: String, preferring: ((TaskID) -> Bool)? = nil) -> TaskResolution {
        let query = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !query.isEmpty else { return .notFound }
        // A ref prefix of k symbols is the hash modulo 27^k (the first symbol is the lowest digit).
        var byRef: [TaskID] = []
        var retiredHit = false
        let symbols = Array(query.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        if symbols.count >= Ref.minimumLength, symbols.count <= Ref.fullLength,
           let digits = Optional(symbols.compactMap(Ref.digit)), digits.count == symbols.count {
            var value: UInt64 = 0
            var modulus: UInt64 = 1
            for d in digits {
                value = value &+ UInt64(d) &* modulus  // a 14-symbol text beyond 2^64 simply matches nothing
                modulus = modulus &* 27
            }
            let whole = digits.count == Ref.fullLength
            for (l, list) in lists.enumerated() {
                for i in 0..<list.taskCount {
                    let id = TaskID(list: l, index: i)
                    let h = fullRef(id, hash: list.segment.refRecord(i).refHash).hash
                    if whole ? h == value : h % modulus == value { byRef.append(id) }
                }
            }
            retiredHit = !retired.isEmpty && !retired.index.indices(withRefPrefix: String(decoding: symbols, as: UTF8.self)).isEmpty
        }
        // Exact titles (ignoring case) are candidates beside refs; a part of a title only counts alone,
        // so the folder's titles are searched for one only when nothing else matched.
        let needle = Array(query.lowercased().utf8)
        let asciiNeedle = needle.allSatisfy { $0 < 0x80 }
        // A title that lowers to an ASCII text is at most three times its length: lowering never
        // removes a character, and only a three-byte one (the Kelvin sign) becomes one ASCII byte.
        let longest = asciiNeedle ? 3 * needle.count : Int.max
        var exact: [TaskID] = []
        // A list whose titles' lengths rule out an ASCII needle is skipped: its tail is not read.
        for (l, list) in lists.enumerated()
        where !asciiNeedle || list.segment.header.mayHoldTitle(loweringToASCII: needle.count) {
            for i in 0..<list.taskCount {
                let title = list.segment.title(of: list.segment.cold(i))
                // An ASCII text equals an ASCII title of its length only, byte for byte (ignoring
                // A-Z case); a title with other characters is longer than what it lowers to, or
                // stays non-ASCII.
                if asciiNeedle {
                    if title.count == needle.count {
                        if Self.equalIgnoringASCIICase(title, needle) { exact.append(TaskID(list: l, index: i)) }
                        continue
                    }
                    if title.count < needle.count || title.count > longest || Self.isASCII(title) { continue }
                }
                if Array(String(decoding: title, as: UTF8.self).lowercased().utf8) == needle {
                    exact.append(TaskID(list: l, index: i))
                }
            }
        }
        func settle(_ candidates: [TaskID]) -> TaskResolution {
            if candidates.count == 1 && !retiredHit { return .found(candidates[0]) }
            if !retiredHit, let preferring, case let kept = candidates.filter(preferring), kept.count == 1 {
                return .found(kept[0])
            }
            return .ambiguous(candidates, retired: retiredHit)
        }
        // A retired ref that tick's own change forwarded leads to the task it became (a few are followed).
        var forwarded: [TaskID] = []
        var lost: (title: String, reason: String)?
        if retiredHit, case let hits = retired.index.indices(withRefPrefix: String(decoding: symbols, as: UTF8.self)),
           hits.count <= Library.forwardedMaximum {
            var all = true
            for hit in hits {
                let next = forward(retired.refs[hit])
                if let task = next?.task { forwarded.append(task) } else { all = false }
                if hits.count == 1, let next, next.task == nil { lost = (next.title, next.reason) }
            }
            if all { retiredHit = false }
        }
        if let lost, byRef.isEmpty, exact.isEmpty { return .lost(title: lost.title, reason: lost.reason) }
        let candidates = Set(byRef + exact + forwarded).sorted()
        if !candidates.isEmpty { return settle(candidates) }
        if retiredHit { return .gone }
        let containing = tasks(withTitleContaining: needle)
        if !containing.isEmpty { return settle(containing) }
        return .notFound
    }

    /// How many retired refs a REF may start for their forwards to be followed.
    static let forwardedMaximum = 8

    /// The tasks whose title, lowered, holds `needle` (lowered UTF-8, not empty).
    private func tasks(withTitleContaining needle: [UInt8]) -> [TaskID] {
        let asciiNeedle = needle.allSatisfy { $0 < 0x80 }
        var containing: [TaskID] = []
        for (l, list) in lists.enumerated() {
            for i in 0..<list.taskCount {
                let title = list.segment.title(of: list.segment.cold(i))
                if asciiNeedle, title.allSatisfy({ $0 < 0x80 }) {
                    // ASCII on both sides: lowering is A-Z to a-z, compared in place.
                    if Self.containsIgnoringASCIICase(title, needle) { containing.append(TaskID(list: l, index: i)) }
                    continue
                }
                let folded = Array(String(decoding: title, as: UTF8.self).lowercased().utf8)
                if folded.count >= needle.count, folded.withUnsafeBufferPointer({ contains($0, needle) }) {
                    containing.append(TaskID(list: l, index: i))
                }
            }
        }
        return containing
    }

    /// Whether `text` equals `lowered` (lowercase ASCII) once its A-Z are lowered.
    static func equalIgnoringASCIICase(_ text: UnsafeBufferPointer<UInt8>, _ lowered: [UInt8]) -> Bool {
        guard text.count == lowered.count else { return false }
        for k in 0..<text.count where text[k] | (text[k] >= 0x41 && text[k] <= 0x5A ? 0x20 : 0) != lowered[k] { return false }
        return true
    }

    /// Whether `text` holds `lowered` (lowercase ASCII, not empty) once its A-Z are lowered.
    static func containsIgnoringASCIICase(_ text: UnsafeBufferPointer<UInt8>, _ lowered: [UInt8]) -> Bool {
        guard !lowered.isEmpty, text.count >= lowered.count else { return lowered.isEmpty }
        for start in 0...(text.count - lowered.count) {
            var k = 0
            while k < lowered.count {
                let byte = text[start + k]
                if byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) != lowered[k] { break }
                k += 1
            }
            if k == lowered.count { return true }
        }
        return false
    }

    /// The list a user names: its path relative to the folder (with or without `.md`), else its file
    /// name without `.md` or its display name, ignoring case and accents, else a unique prefix of either.
    ///
    /// In order: the file's path as written (`work.md`, `home/garden`); the path ignoring case; a
    /// list's name or file name ignoring case and accents (`uber` finds `Über`), where, when several
    /// lists have such a name, the one spelled exactly as `text` wins (`Work` beside `WORK`); then
    /// the start of a name. Several lists left are ambiguous (the caller shows their files).
    public func resolve(list text: String) -> Resolution<Int> {
        let pathText = text.lowercased().hasSuffix(".md") ? text : text + ".md"
        if let exact = lists.firstIndex(where: { $0.file.path == pathText }) { return .found(exact) }
        let pathQuery = pathText.lowercased()
        let paths = lists.indices.filter { lists[$0].file.path.lowercased() == pathQuery }
        if paths.count == 1 { return .found(paths[0]) }
        if paths.count > 1 { return .ambiguous(paths) }
        let query = Folding.fold(text)
        let named = lists.indices.filter {
            Folding.fold(lists[$0].file.baseName) == query || Folding.fold(lists[$0].name) == query
        }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 {
            let exact = named.filter { lists[$0].name == text || lists[$0].file.baseName == text }
            return exact.count == 1 ? .found(exact[0]) : .ambiguous(named)
        }
        let prefixed = lists.indices.filter {
            Folding.fold(lists[$0].file.baseName).starts(with: query) || Folding.fold(lists[$0].name).starts(with: query)
        }
        if prefixed.count == 1 { return .found(prefixed[0]) }
        if prefixed.count > 1 { return .ambiguous(prefixed) }
        return .notFound
    }

    /// Each list's name, followed by its file when another list's name is the same ignoring case
    /// and accents (`Work` and `work`, `Über` and `Uber`): `Work (a/work.md)`.
    public func listLabels() -> [String] {
        /// A folded name, hashed as one run of bytes rather than byte by byte.
        struct Folded: Hashable {
            let bytes: [UInt8]
            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
        let names = lists.map(\.name)
        let folded = names.map { Folded(bytes: Folding.fold($0)) }
        var count: [Folded: Int] = Dictionary(minimumCapacity: folded.count)
        for name in folded { count[name, default: 0] += 1 }
        return names.indices.map { i in count[folded[i]]! > 1 ? "\(names[i]) (\(lists[i].file.path))" : names[i] }
    }
}

/// What a REF resolved to.
public enum TaskResolution: Equatable, Sendable {
    case found(TaskID)
    /// Several tasks match (ascending); `retired`: a retired ref starts with the text too, so it may have
    /// been shown for a task that is gone.
    case ambiguous([TaskID], retired: Bool)
    /// Only retired refs start with the text: the task it named was removed, moved or changed.
    case gone
    /// The text starts one retired ref, which tick's change forwarded, but it leads to no single task: the
    /// title of the task it last named, and why (`which tick has since removed`).
    case lost(title: String, reason: String)
    case notFound
}

/// What a name resolved to.
public enum Resolution<Value: Equatable & Sendable>: Equatable, Sendable {
    case found(Value)
    case ambiguous([Value])
    case notFound
}
