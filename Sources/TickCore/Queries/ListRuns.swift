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
