import Testing
@testable import TickCore
import TickFormat

/// A generator that replays fixed numbers, to drive `Pick.uniform` down a chosen path.
struct ReplayGenerator: RandomNumberGenerator {
    var values: [UInt64]
    var drawn = 0

    mutating func next() -> UInt64 {
        defer { drawn += 1 }
        return values[drawn]
    }
}

/// How often each index is chosen in `draws` choices from one seeded generator.
func counts(weights: [Int], draws: Int, seed: UInt64) -> [Int] {
    var generator = SeededGenerator(seed: seed)
    var counts = [Int](repeating: 0, count: weights.count)
    for _ in 0..<draws { counts[Pick.choose(weights: weights, using: &generator)!] += 1 }
    return counts
}

/// Expects `count` within `tolerance` (a fraction) of `expected`.
func expectNear(_ count: Int, _ expected: Double, tolerance: Double = 0.05,
                sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(Double(count) - expected) <= expected * tolerance,
            "\(count) is not within \(Int(tolerance * 100))% of \(expected)", sourceLocation: sourceLocation)
}

@Suite("pick: the seeded generator and the weighted choice")
struct PickChoiceTests {
    @Test("SplitMix64 gives the published sequence for seed 0")
    func splitMixReference() {
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the same seed makes the same choices; another seed makes others")
    func sameSeedSameChoices() {
        let weights = [3, 1, 4, 1, 5, 9, 2, 6]
        func sequence(_ seed: UInt64) -> [Int] {
            var generator = SeededGenerator(seed: seed)
            return (0..<50).map { _ in Pick.choose(weights: weights, using: &generator)! }
        }
        #expect(sequence(7) == sequence(7))
        #expect(sequence(7) != sequence(8))
    }

    @Test("choices follow the weights", arguments: [UInt64(1), 42, 2026])
    func distribution(seed: UInt64) {
        let weights = [1, 2, 3, 6]
        let draws = 60_000
        let seen = counts(weights: weights, draws: draws, seed: seed)
        #expect(seen.reduce(0, +) == draws)
        for (i, weight) in weights.enumerated() {
            expectNear(seen[i], Double(draws) * Double(weight) / 12)
        }
    }

    @Test("a zero weight is never chosen while another is not zero; all zero is uniform")
    func zeroWeights() {
        let seen = counts(weights: [0, 5, 0, 1], draws: 6_000, seed: 3)
        #expect(seen[0] == 0 && seen[2] == 0)
        expectNear(seen[1], 5_000)
        let uniform = counts(weights: [0, 0, 0], draws: 3_000, seed: 3)
        for count in uniform { expectNear(count, 1_000, tolerance: 0.1) }
    }

    @Test("no weights, no choice; one weight, always it")
    func degenerate() {
        var generator = SeededGenerator(seed: 1)
        #expect(Pick.choose(weights: [], using: &generator) == nil)
        for _ in 0..<20 { #expect(Pick.choose(weights: [4], using: &generator) == 0) }
    }

    @Test("uniform(below:) covers its range evenly and never reaches the bound")
    func uniformRange() {
        var generator = SeededGenerator(seed: 11)
        var seen = [Int](repeating: 0, count: 7)
        for _ in 0..<7_000 {
            let n = Pick.uniform(below: 7, using: &generator)
            #expect(n < 7)
            seen[Int(n)] += 1
        }
        for count in seen { expectNear(count, 1_000, tolerance: 0.1) }
        #expect(Pick.uniform(below: 1, using: &generator) == 0)
        #expect(Pick.uniform(below: .max, using: &generator) < .max)
    }

    @Test("uniform(below:) rejects the draws that would bias it and draws again")
    func uniformRejection() {
        // For bound 3, a draw whose low product word is below 2^64 mod 3 = 1, here 0, is rejected.
        var generator = ReplayGenerator(values: [0, .max])
        #expect(Pick.uniform(below: 3, using: &generator) == 2)
        #expect(generator.drawn == 2)
        var plain = ReplayGenerator(values: [.max / 2])
        #expect(Pick.uniform(below: 3, using: &plain) == 1)
        #expect(plain.drawn == 1)
    }
}

@Suite("pick: weights")
struct PickWeightTests {
    /// Weights at Saturday 14 March 2026, 09:30, as the README's table gives them.
    @Test("each kind of urgency adds its documented weight", arguments: [
        ("plain", 1),
        ("low !", 2),
        ("medium !!", 3),
        ("high !!!", 5),
        ("flagged #flag", 4),
        ("due later today due:2026-03-14", 5),
        ("due today at a time to come due:2026-03-14T18:00", 5),
        ("due today at a time passed due:2026-03-14T09:00", 7),
        ("one day late due:2026-03-13", 8),
        ("three days late due:2026-03-11", 10),
        ("six days late due:2026-03-08", 13),
        ("a month late is capped due:2026-02-14", 13),
        ("due tomorrow due:2026-03-15", 2),
        ("due in three days due:2026-03-17", 2),
        ("due in four days due:2026-03-18", 1),
        ("all at once !!! #flag due:2026-03-04", 20),
    ])
    func weight(line: String, expected: Int) throws {
        let document = Document("- [ ] \(line)\n")
        let task = try #require(document.tasks.first)
        #expect(PickWeights.standard.weight(of: task, at: saturday) == expected)
    }
}

@Suite("pick: over a library")
struct PickLibraryTests {
    let library = makeLibrary([
        ("home.md", """
            - [ ] Plain
            - [ ] Bills !!! #flag due:2026-03-01
              - [ ] Find the invoice
            - [x] Done already #flag due:2026-03-01
            - [ ] Later due:2026-04-01

            """),
        ("work.md", """
            - [ ] Report #flag
            - [ ] Call due:2026-03-14T09:00

            """),
    ])

    @Test("candidates: every open task, subtasks too, in folder order")
    func candidatesAll() {
        let ids = library.pickCandidates(PickScope(), now: saturday)
        #expect(library.titles(ids) == ["Plain", "Bills", "Find the invoice", "Later", "Report", "Call"])
    }

    @Test("candidates: a view's open tasks, a list's, or both")
    func candidatesNarrowed() {
        func titles(_ scope: PickScope) -> [String] { library.titles(library.pickCandidates(scope, now: saturday)) }
        #expect(titles(PickScope(view: .today)) == ["Bills", "Call"])
        #expect(titles(PickScope(view: .flagged)) == ["Bills", "Report"])
        #expect(titles(PickScope(view: .scheduled)) == ["Bills", "Later", "Call"])
        #expect(titles(PickScope(list: 1)) == ["Report", "Call"])
        #expect(titles(PickScope(view: .flagged, list: 0)) == ["Bills"])
        #expect(titles(PickScope(view: .today, list: 1)) == ["Call"])
    }

    @Test("urgent tasks are picked in proportion to their weight")
    func weightedOverLibrary() {
        // Plain 1, Bills 1+6+6+4+3 = 20, Find the invoice 1, Later 1, Report 4, Call 7: total 34.
        let candidates = library.pickCandidates(PickScope(), now: saturday)
        var generator = SeededGenerator(seed: 5)
        var seen: [String: Int] = [:]
        for _ in 0..<34_000 {
            let id = library.pick(from: candidates, excluding: nil, weighting: .urgency(.standard), now: saturday,
                                  using: &generator)!
            seen[library.task(id).title, default: 0] += 1
        }
        let expected = ["Plain": 1, "Bills": 20, "Find the invoice": 1, "Later": 1, "Report": 4, "Call": 7]
        for (title, weight) in expected { expectNear(seen[title] ?? 0, Double(weight) * 1_000, tolerance: 0.1) }
    }

    @Test("--uniform gives every task the same chance")
    func uniformOverLibrary() {
        let candidates = library.pickCandidates(PickScope(), now: saturday)
        var generator = SeededGenerator(seed: 5)
        var seen: [TaskID: Int] = [:]
        for _ in 0..<6_000 {
            let id = library.pick(from: candidates, excluding: nil, weighting: .uniform, now: saturday,
                                  using: &generator)!
            seen[id, default: 0] += 1
        }
        #expect(seen.count == 6)
        for count in seen.values { expectNear(count, 1_000, tolerance: 0.1) }
    }

    @Test("the current pick is never picked again while another candidate exists", arguments: [
        "Bills", "Plain", "Call",
    ])
    func neverRepeats(current title: String) throws {
        let current = try #require(library.id(title))
        let candidates = library.pickCandidates(PickScope(), now: saturday)
        for seed in UInt64(0)..<300 {
            var generator = SeededGenerator(seed: seed)
            let id = library.pick(from: candidates, excluding: current, weighting: .urgency(.standard), now: saturday,
                                  using: &generator)
            #expect(id != nil && id != current)
        }
    }

    @Test("a pick read in place chooses what the pool without the current pick and its weights choose, seed for seed")
    func inPlaceAgreesWithPool() {
        let all = library.pickCandidates(PickScope(), now: saturday)
        var random = SeededGenerator(seed: 77)
        for round in 0..<300 {
            // Any candidates, the current pick among them (once or twice), first, last or absent.
            var candidates = all.filter { _ in random.next() % 3 != 0 }
            let current = all[Int(random.next() % UInt64(all.count))]
            if round % 4 == 0 { candidates.append(current) }
            if round % 7 == 0 { candidates.insert(current, at: 0) }
            let weighting: PickWeighting = round % 2 == 0 ? .uniform : .urgency(.standard)
            let seed = random.next()
            var pool = candidates
            if pool.contains(where: { $0 != current }) { pool.removeAll { $0 == current } }
            let weights = pool.map { id -> Int in
                guard case .urgency(let urgency) = weighting else { return 1 }
                let t = library.task(id)
                return urgency.weight(due: t.due, priority: t.priority, flagged: t.flagged, at: saturday)
            }
            var expectedGenerator = SeededGenerator(seed: seed), generator = SeededGenerator(seed: seed)
            let expected = Pick.choose(weights: weights, using: &expectedGenerator).map { pool[$0] }
            let chosen = library.pick(from: candidates, excluding: current, weighting: weighting, now: saturday,
                                      using: &generator)
            #expect(chosen == expected, "round \(round)")
        }
    }

    @Test("the current pick comes back when it is the only candidate; no candidate, no pick")
    func onlyCandidate() throws {
        let call = try #require(library.id("Call"))
        var generator = SeededGenerator(seed: 1)
        #expect(library.pick(from: [call], excluding: call, weighting: .urgency(.standard), now: saturday,
                             using: &generator) == call)
        #expect(library.pick(from: [], excluding: call, weighting: .urgency(.standard), now: saturday,
                             using: &generator) == nil)
    }
}

@Suite("pick: the picked task's identity")
struct PickedTaskTests {
    @Test("identity is list path, title and occurrence")
    func identity() throws {
        let library = makeLibrary([("a/b.md", "- [ ] Same\n- [ ] Other !!\n- [ ] Same due:2026-03-20\n")])
        let second = TaskID(list: 0, index: 2)
        let picked = PickedTask(second, in: library)
        #expect(picked == PickedTask(path: "a/b.md", title: "Same", occurrence: 1))
        #expect(picked.find(in: library) == second)
    }

    @Test("found again after other tasks and its own metadata changed")
    func foundAfterEdits() throws {
        let picked = PickedTask(path: "b.md", title: "Same", occurrence: 1)
        let edited = Document("- [ ] New first\n- [ ] Same\n- [ ] Other\n- [ ] Same !!! #flag due:2026-04-01\n")
        #expect(picked.find(in: edited) == 3)
    }

    @Test("not found when retitled, when its twin went away, or in another list")
    func notFound() {
        let picked = PickedTask(path: "b.md", title: "Same", occurrence: 1)
        #expect(picked.find(in: Document("- [ ] Same\n- [ ] Same but longer\n")) == nil)
        #expect(picked.find(in: Document("- [ ] Other\n- [ ] Same\n")) == nil)
        let library = makeLibrary([("c.md", "- [ ] Same\n- [ ] Same\n")])
        #expect(picked.find(in: library) == nil)
    }
}
