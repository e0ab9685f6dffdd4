// libFuzzer entry point for the query language (`make fuzz-query`), built with TickFormat and
// TickCore as modules. The first byte chooses the first day of the week (1 to 7); the rest is the
// query. Properties: no crash (a query nested past the parser's bound is an error, not a deep
// stack); parsing is deterministic; an error names a column inside the query or just after it;
// the tree's users (explanation, completion test, comparison) walk any tree the parser builds.

import TickCore
import TickFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func tickQueryFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let weekStart = Int(first) % 7 + 1
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    // Tuesday 1 December 2026, 10:00 (the date words' ends of the calendar are `make fuzz-dates`').
    let now = Now(day: Day(year: 2026, month: 12, day: 1)!, minutes: 10 * 60)
    do {
        let query = try Query(parsing: text, now: now, weekStart: weekStart)
        let again = try Query(parsing: text, now: now, weekStart: weekStart)
        precondition(query == again, "the same text parsed to two trees")
        precondition(!query.explanation.isEmpty, "an empty explanation")
        _ = query.mentionsCompletion
    } catch {
        precondition(error.column >= 1 && error.column <= text.count + 1,
                     "an error at column \(error.column) of a query of \(text.count) characters: \(error)")
    }
    return 0
}
