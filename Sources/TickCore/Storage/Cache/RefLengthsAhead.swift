import Dispatch

/// The short-ref lengths of a library whose lists were all parsed in this run, measured on another
/// thread while a write command changes its lists: the cache written after the change needs them,
/// and a change that keeps every ref (a completion) keeps them too (`Library.replacing`).
final class RefLengthsAhead: @unchecked Sendable {
    /// Where the library's segments lie: the lengths are for these segments' records alone.
    private let bases: [UnsafeRawPointer]
    private var table: [UInt8] = []
    private let group = DispatchGroup()

    /// Starts measuring, unless the library has its lengths, a list read from the cache (whose
    /// records are proven on first use, on the thread that uses them), or a list so large that
    /// the change, which parses its list again, should not share its peak of memory with this.
    init?(_ library: Library, largest: Int = ListCache.TailBatch.aheadBytes) {
        guard library.refLengths.table == nil,
              library.lists.allSatisfy({ $0.segment.proof == nil && $0.segment.length <= largest })
        else { return nil }
        let segments = library.lists.map(\.segment), count = library.taskCount, storage = library.storage
        bases = segments.map(\.base)
        DispatchQueue.global().async(group: group) { [self] in
            withExtendedLifetime(storage) {
                table = RefIndex.shortRefLengths(count: count) { body in
                    for segment in segments {
                        for record in segment.refRecords() { body(record.refHash) }
                    }
                }
            }
        }
    }

    /// Gives `library` the lengths once they are measured, when it holds the same segments and no
    /// lengths yet.
    func install(in library: Library) {
        group.wait()
        guard library.refLengths.table == nil, library.lists.count == bases.count,
              zip(library.lists, bases).allSatisfy({ $0.segment.base == $1 })
        else { return }
        library.refLengths.table = table
    }
}
