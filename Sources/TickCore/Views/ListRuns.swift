import Dispatch

// Whole-folder passes (views, search) over a large folder run on several threads.
// Each thread takes whole lists, so a list's segment, and the proof of its cached areas, is read by
// one thread alone; the results come back in list order, so a pass gives the same answer either way.

extension Library {
    /// How many runs a large folder's lists are cut into: more than there are cores, so that a run
    /// of heavy lists does not leave a core idle.
    static let runCount = 8

    /// The results of `pass` over consecutive runs of list indices, in list order, with each run's
    /// lists holding about as many tasks: on several threads once the folder holds
    /// `parallelMinimum` tasks, else one run on this thread. With `only`, that list alone.
    func inListRuns<T>(only: Int? = nil, _ pass: @Sendable (Range<Int>) -> T) -> [T] {
        if let only { return [pass(only..<(only + 1))] }
        guard taskCount >= parallelMinimum, lists.count > 1 else { return [pass(lists.indices)] }
        let bounds = runBounds()
        let slots = ResultSlots<T>(count: bounds.count - 1)
        DispatchQueue.concurrentPerform(iterations: bounds.count - 1) { k in
            slots[k] = pass(bounds[k]..<bounds[k + 1])
        }
        return (0..<(bounds.count - 1)).map { slots[$0]! }
    }

    /// Where each run starts, then `lists.count`: a run ends after the list at which the tasks so
    /// far reach its share. Every run holds at least one list.
    private func runBounds() -> [Int] {
        var bounds = [0]
        var l = 0
        for k in 1..<Library.runCount {
            let share = taskCount * k / Library.runCount
            while l < lists.count, lists[l].firstTask + lists[l].taskCount <= share { l += 1 }
            if l > bounds.last!, l < lists.count { bounds.append(l) }
        }
        bounds.append(lists.count)
        return bounds
    }
}

extension Library {
    /// From how many rows `renderRows` renders on several threads.
    static let parallelRows = 4096
    /// How many ranges of rows are rendered at a time: their bytes wait to be written in order, so
    /// a few at a time keeps memory to a few ranges' rows.
    static let rowRangesAtOnce = 4

    /// Renders rows and writes them in order: `render` turns a range of `ids` into bytes, `write`
    /// takes each range's bytes. In a folder of `parallelMinimum` tasks or more and from
    /// `parallelRows` rows, what rows read in every list holding a row is proven first (on several
    /// threads, each list by one; `Segment.proveForRows`; a damaged list is parsed again), so that
    /// rendering only reads (`render` must not read the folded area), and ranges of rows are then
    /// rendered on several threads, a few at a time. Otherwise one range holds every row.
    public func renderRows(_ ids: [TaskID], render: @Sendable (Range<Int>) -> [UInt8], write: ([UInt8]) -> Void) {
        guard taskCount >= parallelMinimum, ids.count >= Library.parallelRows else {
            write(render(ids.indices))
            return
        }
        var holdsRows = [Bool](repeating: false, count: lists.count)
        for id in ids { holdsRows[id.list] = true }
        let holding = holdsRows
        _ = inListRuns { range in
            for l in range where holding[l] { lists[l].segment.proveForRows() }
        }
        let proofs = lists.indices.compactMap { holding[$0] ? lists[$0].segment.proof : nil }
        proofs.forEach { $0.rendering = true }
        defer { proofs.forEach { $0.rendering = false } }
        // Ref lengths are memoized on first use: settle the memo before threads read it.
        _ = shortRefLengths
        let ranges = rowRanges(ids.count)
        var start = 0
        while start < ranges.count {
            let batch = Array(ranges[start..<min(ranges.count, start + Library.rowRangesAtOnce)])
            let slots = ResultSlots<[UInt8]>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in slots[k] = render(batch[k]) }
            for k in batch.indices { write(slots[k]!) }
            start += batch.count
        }
    }

    /// `0..<count` in ranges of about a 128th each, and at least `parallelRows / 2`: the bytes of
    /// four ranges at a time wait to be written, about 1 MB at a million rows.
    func rowRanges(_ count: Int) -> [Range<Int>] {
        let size = max(count / 128, Library.parallelRows / 2)
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }
}
