import Foundation

/// The size of a long property or stress test: a sample in `make test`, the whole run in
/// `make properties` (which sets `TICK_PROPERTIES=full`). The sample is seeded as the whole run is,
/// and is its first part: a failure the sample finds, the whole run finds at the same step.
enum LongRuns {
    static let full = ProcessInfo.processInfo.environment["TICK_PROPERTIES"] == "full"

    /// `sample` in `make test`, `whole` in `make properties`.
    static func size(sample: Int, whole: Int) -> Int { full ? whole : sample }
}
