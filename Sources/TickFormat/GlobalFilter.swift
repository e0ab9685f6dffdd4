// The Obsidian Tasks plugin's global filter (FORMAT.md 11): with one set, a checkbox line is a task
// only when its title line holds the filter's text; every other checkbox line is a plain list item.

/// A global filter: a tag such as `#task`. A title line holds it when the tag's text appears in it
/// anywhere, as the plugin reads it (so `#tasks` and `#task/home` hold `#task` too).
public struct GlobalFilter: Sendable, Hashable, CustomStringConvertible {
    /// The tag as written, `#` included.
    public let text: String
    let bytes: [UInt8]

    /// The filter `text`, or nil when it is not a tag that can be one (see `problem(with:)`).
    public init?(_ text: String) {
        guard GlobalFilter.problem(with: text) == nil else { return nil }
        self.text = text
        bytes = Array(text.utf8)
    }

    public var description: String { text }

    /// Nil when `text` can be a filter, else what it must be instead: `#` and one or more letters,
    /// digits, `_`, `-` or `/` (a whole tag, FORMAT.md 5.5), and not `#flag`, which is the flag.
    public static func problem(with text: String) -> String? {
        let expected = "a tag: '#' and letters, digits, '_', '-' or '/'"
        let scalars = text.unicodeScalars
        guard scalars.first == "#", scalars.count > 1,
              scalars.dropFirst().allSatisfy(isTagNameScalar)
        else { return expected }
        if text.lowercased() == "#flag" { return "a tag other than #flag, which flags a task" }
        return nil
    }

    /// Whether `range` of `bytes` holds the filter's text.
    func isIncluded(in bytes: [UInt8], _ range: Range<Int>) -> Bool {
        let n = self.bytes.count
        guard n > 0, range.count >= n else { return false }
        let first = self.bytes[0]
        var i = range.lowerBound
        while i + n <= range.upperBound {
            if bytes[i] == first, bytes[i..<(i + n)].elementsEqual(self.bytes) { return true }
            i += 1
        }
        return false
    }

    /// Whether `title` holds the filter's text.
    public func isIncluded(in title: String) -> Bool {
        let b = Array(title.utf8)
        return isIncluded(in: b, 0..<b.count)
    }

    /// A number that changes with the filter (FNV-1a of its bytes; 0 for none), for a cache of parsed
    /// lists to tell what setting it was written with.
    public static func fingerprint(_ filter: GlobalFilter?) -> UInt64 {
        guard let filter else { return 0 }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in filter.bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash == 0 ? 1 : hash
    }
}
