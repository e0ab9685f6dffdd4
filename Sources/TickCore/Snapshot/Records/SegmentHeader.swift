import Dispatch
import Synchronization
import TickFormat

/// The header of a list's segment: a self-contained block of its records and text.
struct SegmentHeader {
    var taskCount: UInt32
    var openCount: UInt32
    var sectionCount: UInt32
    var textLength: UInt32
    /// The number of extra records, which follow the cold records.
    var extraCount: UInt32
    /// The number of folded records, and the length of the folded text that follows them.
    var foldedCount: UInt32
    var foldedLength: UInt32
    /// The number of parent records, which follow the ref records.
    var subtaskCount: UInt32
    /// How many problems reading the list found (`Document.readingProblemCount`), which the views
    /// report on standard error. Read from the cache, it is at most `contentLength` (each problem
    /// takes a byte of the file at least).
    var problemCount: UInt32 = 0
    /// The length of the names' text (heading, symbol, colour and section names), which follows
    /// the section refs, padded with zeros to 8 bytes: the refs below and the section refs point
    /// into it, so that a list's name is read next to its header.
    var namesLength: UInt32
    var heading: TextRef
    var symbol: TextRef
    var color: TextRef
    /// The length and checksum of the file's bytes that the segment was built from: a cached list
    /// whose status cannot vouch for it (changed within the racy window, or just written by tick)
    /// is used when its file still holds these bytes.
    var contentLength: UInt64
    var contentSum: UInt64
    /// The lengths of the list's titles, for resolving a REF as a title without decompressing
    /// the tail of a list that cannot hold it: bit n for a title of n bytes (bit 63 for 63 or
    /// more), in `asciiTitleLengths` for a title all ASCII, in `otherTitleLengths` for the rest.
    var asciiTitleLengths: UInt64 = 0
    var otherTitleLengths: UInt64 = 0

    static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }

    /// Whether the list may hold a title that lowers to `length` bytes of ASCII: an ASCII title of
    /// that length, or another one longer but at most three times it (lowering never removes a
    /// character, and only a three-byte one, the Kelvin sign, becomes one ASCII byte).
    func mayHoldTitle(loweringToASCII length: Int) -> Bool {
        let longer = (SegmentHeader.lengthBit(3 * length) << 1 &- 1) & ~(SegmentHeader.lengthBit(length + 1) &- 1)
        return asciiTitleLengths & SegmentHeader.lengthBit(length) != 0 || otherTitleLengths & longer != 0
    }
}
