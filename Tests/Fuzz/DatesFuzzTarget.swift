// libFuzzer entry point for the date words (`make fuzz-dates`), built with TickFormat and TickCore
// as modules. The first three bytes choose "now": a day anywhere from 0001-01-01 to 9999-12-31
// (the ends of the calendar included) and a minute of it; the rest is the word, read as a due date
// (`due:fri`, `+3d`, `next-month`, `2026-03-14T09:30`), as a `--now` value, and as a query's date
// filter (`due:<=WORD`, `done:WORD..`). Properties: no crash; a due date that parses prints as
// text that parses back to the same date.

import TickCore
import TickFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func tickDatesFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard bytes.count >= 3 else { return 0 }
    let first = Day(year: 1, month: 1, day: 1)!.daysSinceEpoch, last = Day(year: 9999, month: 12, day: 31)!.daysSinceEpoch
    let pick = Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
    // Most inputs land near the ends of the calendar or near today; the rest anywhere.
    let day: Int
    switch pick % 4 {
    case 0: day = first + (pick >> 2) % 400
    case 1: day = last - (pick >> 2) % 400
    case 2: day = Day(year: 2026, month: 12, day: 1)!.daysSinceEpoch + (pick >> 2) % 800 - 400
    default: day = first + (pick >> 2) * 37 % (last - first + 1)
    }
    let now = Now(day: Day(daysSinceEpoch: day), minutes: (pick >> 3) % (24 * 60))
    let word = String(decoding: bytes.dropFirst(3), as: UTF8.self)
    if let due = try? DueDate(parsing: word, relativeTo: now) {
        let back = try? DueDate(parsing: due.description, relativeTo: now)
        precondition(back == due, "\(word) parsed to \(due), which parses back to \(String(describing: back))")
    }
    _ = try? Now(parsing: word)
    for filter in ["due:" + word, "due:<=" + word, "due:>" + word, "done:" + word + "..", "due:.." + word] {
        _ = try? Query(parsing: filter, now: now, weekStart: Int(bytes[2]) % 7 + 1)
    }
    return 0
}
