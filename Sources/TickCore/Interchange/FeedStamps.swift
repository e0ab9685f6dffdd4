// Per-task stamps in a feed (`tick export ics -o FILE`): a VTODO whose content is what the feed it
// replaces held, apart from its `DTSTAMP`, `LAST-MODIFIED` and `SEQUENCE`, is copied from that feed
// byte for byte, so that one changed task changes one VTODO; a changed one gets the new stamp and
// a `SEQUENCE` one higher, as `tick export vdir` does file by file.

extension ICalendar {
    /// A whole feed of `todos`, each unchanged VTODO of `previous` (a feed tick wrote) kept as it was.
    public static func calendar(_ todos: [CalendarTodo], keepingStampsOf previous: [UInt8]) -> [UInt8] {
        let blocks = FeedStamps.blocks(previous)
        var out: [UInt8] = []
        begin(&out)
        for var todo in todos {
            guard let old = blocks[todo.uid] else {
                append(todo, to: &out)
                continue
            }
            todo.sequence = old.sequence
            var block: [UInt8] = []
            append(todo, to: &block)
            if VdirStamps.withoutStamps(block) == VdirStamps.withoutStamps(old.bytes) {
                out += old.bytes
                continue
            }
            todo.sequence = old.sequence + 1
            append(todo, to: &out)
        }
        line("END:VCALENDAR", to: &out)
        return out
    }
}

enum FeedStamps {
    /// One VTODO of a feed: its lines as written, from `BEGIN:VTODO` to `END:VTODO` and CRLF, and its `SEQUENCE`.
    struct Block {
        var bytes: [UInt8]
        var sequence: Int
    }

    /// The VTODOs of `feed` by UID (unfolded, unescaped); a UID found twice, a block that does not
    /// end, or one whose stamps are not as tick writes them (one `DTSTAMP`, at most one
    /// `LAST-MODIFIED` and `SEQUENCE`, each a UTC time or digits) is left out, as is everything when
    /// the feed does not start as tick's do.
    static func blocks(_ feed: [UInt8]) -> [String: Block] {
        guard feed.starts(with: Array("BEGIN:VCALENDAR\r\n".utf8)), feed.count <= 64 << 20 else { return [:] }
        var result: [String: Block] = [:]
        var twice = Set<String>()
        var start: Int?
        var uid: String?
        var sequence = 0
        var stamps = (dtstamp: 0, modified: 0, sequence: 0, bad: false)
        var i = 0
        while i < feed.count {
            var end = i
            while end + 1 < feed.count, !(feed[end] == 0x0D && feed[end + 1] == 0x0A) { end += 1 }
            guard end + 1 < feed.count else { break }
            let line = feed[i..<end]
            let next = end + 2
            if line.elementsEqual("BEGIN:VTODO".utf8) {
                (start, uid, sequence) = (i, nil, 0)
                stamps = (0, 0, 0, false)
            } else if let begun = start {
                if line.starts(with: "UID:".utf8) {
                    // A folded UID continues on lines that start with a space.
                    var value = Array(line.dropFirst(4))
                    var j = next
                    while j < feed.count, feed[j] == 0x20 {
                        var e = j
                        while e + 1 < feed.count, !(feed[e] == 0x0D && feed[e + 1] == 0x0A) { e += 1 }
                        value += feed[(j + 1)..<e]
                        j = e + 2
                    }
                    uid = String(validating: value, as: UTF8.self).map(VObject.text)
                } else if line.starts(with: "DTSTAMP:".utf8) {
                    stamps.dtstamp += 1
                    stamps.bad = stamps.bad || !isUTC(line.dropFirst(8))
                } else if line.starts(with: "LAST-MODIFIED:".utf8) {
                    stamps.modified += 1
                    stamps.bad = stamps.bad || !isUTC(line.dropFirst(14))
                } else if line.starts(with: "SEQUENCE:".utf8) {
                    stamps.sequence += 1
                    let digits = line.dropFirst(9)
                    if (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                        sequence = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                    } else {
                        stamps.bad = true
                    }
                } else if line.elementsEqual("END:VTODO".utf8) {
                    if let uid, !stamps.bad, stamps.dtstamp == 1, stamps.modified <= 1, stamps.sequence <= 1 {
                        if result[uid] != nil { twice.insert(uid) }
                        result[uid] = Block(bytes: Array(feed[begun..<next]), sequence: sequence)
                    }
                    start = nil
                }
            }
            i = next
        }
        for uid in twice { result[uid] = nil }
        return result
    }

    /// `YYYYMMDDTHHMMSSZ`.
    static func isUTC(_ value: ArraySlice<UInt8>) -> Bool {
        let v = Array(value)
        return v.count == 16 && v[8] == UInt8(ascii: "T") && v[15] == UInt8(ascii: "Z")
            && (v[0..<8] + v[9..<15]).allSatisfy { (0x30...0x39).contains($0) }
    }
}
