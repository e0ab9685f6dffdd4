import Dispatch

// Whole-folder passes (views, search, the home counts) over a large folder run on several threads.
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
    /// From how many rows `renderInListRuns` renders on several threads.
    static let parallelRows = 4096
    /// How many runs of rows are rendered at a time: their bytes wait to be written in order, so a
    /// few at a time keeps memory to a few runs' rows.
    static let rowRunsAtOnce = 4

    /// Renders rows that come grouped by list, in list order (as `all` gives them), and writes them
    /// in order: `render` turns a range of `ids` into bytes, `write` takes each range's bytes. In a
    /// folder of `parallelMinimum` tasks or more, ranges that split only where the list changes
    /// are rendered on several threads, each list by one thread, a few ranges at a time; otherwise,
    /// or when the rows are not grouped so, one range holds them all.
    public func renderInListRuns(_ ids: [TaskID], render: @Sendable (Range<Int>) -> [UInt8], write: ([UInt8]) -> Void) {
        guard taskCount >= parallelMinimum, ids.count >= Library.parallelRows,
              zip(ids, ids.dropFirst()).allSatisfy({ $0.list <= $1.list })
        else {
            write(render(ids.indices))
            return
        }
        // Ref lengths are memoized on first use: settle the memo before threads read it.
        _ = shortRefLengths
        let runs = rowRuns(ids)
        var start = 0
        while start < runs.count {
            let batch = Array(runs[start..<min(runs.count, start + Library.rowRunsAtOnce)])
            let slots = ResultSlots<[UInt8]>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in slots[k] = render(batch[k]) }
            for k in batch.indices { write(slots[k]!) }
            start += batch.count
        }
    }

    /// Ranges of `ids` (grouped by list) of about a thirty-second of the rows each, and at least
    /// `parallelRows / 2`, each ending where the list changes.
    func rowRuns(_ ids: [TaskID]) -> [Range<Int>] {
        let size = max(ids.count / 32, Library.parallelRows / 2)
        var runs: [Range<Int>] = []
        var start = 0
        while start < ids.count {
            var end = min(start + size, ids.count)
            while end < ids.count, ids[end].list == ids[end - 1].list { end += 1 }
            runs.append(start..<end)
            start = end
        }
        return runs
    }
}
