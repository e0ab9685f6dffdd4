import Testing
@testable import TickCore
import TickFormat

// MARK: - Independent references

/// FNV-1a 64 written differently from the library: the prime is 2^40 + 0x1b3, so multiplying by it is a
/// shift plus a small product.
private func referenceFNV(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 14_695_981_039_346_656_037
    for b in bytes {
        h ^= UInt64(b)
        h = (h << 40) &+ (h &* 435)
    }
    return h
}

/// The ref text written differently from the library: digits by repeated division, collected most
/// significant first, then reversed.
private func referenceText(_ hash: UInt64) -> String {
    let symbols = Array("23456789bcdfghjkmnpqrstvwxz")
    var digits: [Character] = []
    var h = hash
    while digits.count < 14 {
        let (q, r) = h.quotientAndRemainder(dividingBy: 27)
        digits.insert(symbols[Int(r)], at: 0)
        h = q
    }
    return String(digits.reversed())
}

/// A hash whose ref text starts with `prefix` (each symbol from the alphabet), the remaining digits taken from `rest`.
private func hash(startingWith prefix: String, rest: UInt64 = 0) -> UInt64 {
    let alphabet = Array("23456789bcdfghjkmnpqrstvwxz".utf8)
    var value: UInt64 = 0
    var scale: UInt64 = 1
    for symbol in prefix.utf8 {
        value += UInt64(alphabet.firstIndex(of: symbol)!) * scale
        scale *= 27
    }
    return value + (rest % (UInt64.max / scale)) * scale
}

private func randomRefs(_ count: Int, seed: UInt64) -> [Ref] {
    var rng = SeededGenerator(seed: seed)
    return (0..<count).map { _ in Ref(hash: rng.next()) }
}

// MARK: - Hash

@Suite("ref hash")
struct RefHashTests {
    @Test("FNV-1a 64 matches the published test vectors")
    func vectors() {
        #expect(FNV1a64.hash([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a64.hash(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a64.hash(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    @Test("FNV-1a 64 agrees with an independent implementation")
    func agreesWithReference() {
        var rng = SeededGenerator(seed: 7)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(FNV1a64.hash(bytes) == referenceFNV(bytes), "length \(length)")
        }
    }

    @Test("a ref hashes path NUL title NUL occurrence")
    func input() {
        let ref = Ref(path: "inbox.md", title: "Call the plumber", occurrence: 0)
        #expect(ref.hash == referenceFNV(Array("inbox.md\u{0}Call the plumber\u{0}0".utf8)))
        #expect(Ref(path: "a/b.md", title: "x", occurrence: 12).hash == referenceFNV(Array("a/b.md\u{0}x\u{0}12".utf8)))
    }

    @Test("concrete refs stay the same across runs and machines")
    func concreteValues() {
        // Computed once with a separate FNV-1a and base-27 encoder outside this project.
        let first = Ref(path: "inbox.md", title: "Call the plumber", occurrence: 0)
        #expect(first.hash == 0xc749_2f24_bbe0_c53a)
        #expect(first.description == "d2fd98vg4w6pj5")
        let second = Ref(path: "inbox.md", title: "Call the plumber", occurrence: 1)
        #expect(second.hash == 0xc749_3024_bbe0_c6ed)
        #expect(second.description == "4mbh59zc8w6pj5")
        let unicode = Ref(path: "work/projects.md", title: "Café ☕ réunion", occurrence: 0)
        #expect(unicode.hash == 0x9274_851c_8e60_8bda)
        #expect(unicode.description == "dkqc39c6m8dbm4")
    }

    @Test("the text is 14 symbols of the alphabet, least significant digit first")
    func text() {
        for ref in randomRefs(500, seed: 1) + [Ref(hash: 0), Ref(hash: .max), Ref(hash: 27)] {
            #expect(ref.description == referenceText(ref.hash))
            #expect(ref.description.count == 14)
            #expect(ref.description.allSatisfy { !"aeiouyl01".contains($0) })
        }
        #expect(Ref(hash: 0).description == "22222222222222")
        #expect(Ref(hash: 27).description == "23222222222222")
        #expect(Ref(hash: 26).prefix(3) == "z22")
        #expect(Ref(hash: 28).prefix(3) == "332")
        #expect(Ref(hash: 0xc749_2f24_bbe0_c53a).prefix(5) == "d2fd9")
        #expect(Ref(hash: 1).prefix(20) == "32222222222222")
    }

    @Test("the alphabet has no vowels, no y, and no 0, 1 or l")
    func alphabet() {
        let symbols = Ref.alphabet.map { Character(Unicode.Scalar($0)) }
        #expect(symbols.count == 27)
        #expect(Set(symbols).count == 27)
        #expect(symbols.allSatisfy { !"aeiouyl01".contains($0) })
        #expect(symbols == symbols.sorted())
    }

    @Test("refs order like their text")
    func ordering() {
        let refs = randomRefs(300, seed: 2) + [Ref(hash: 0), Ref(hash: .max)]
        #expect(refs.sorted().map(\.description) == refs.map(\.description).sorted())
    }

    @Test("a title ref hashes path NUL title NUL 0, an id ref NUL id: value")
    func titleAndIDInput() {
        #expect(Ref(path: Array("inbox.md".utf8), title: Array("Call the plumber".utf8)).hash
                == referenceFNV(Array("inbox.md\u{0}Call the plumber\u{0}0".utf8)))
        #expect(Ref(id: Array("k7q2".utf8)).hash == referenceFNV(Array("\u{0}id:k7q2".utf8)))
    }

    @Test("a content ref hashes the fields FORMAT.md names, in order")
    func contentInput() {
        let ref = Ref.content(path: Array("a.md".utf8), title: Array("Buy milk".utf8),
                              due: DueDate(day: Day(year: 2026, month: 12, day: 4)!, minutes: 570), priority: 2,
                              flagged: true, section: "Shop", parentTitle: Array("Errands".utf8), notes: Array("oat".utf8))
        let input = "a.md\u{0}Buy milk\u{0}\u{1}\u{0}2026-12-04T09:30\u{0}2\u{0}1\u{0}Shop\u{0}Errands\u{0}oat"
        #expect(ref.hash == referenceFNV(Array(input.utf8)))
        let bare = Ref.content(path: Array("a.md".utf8), title: Array("Buy milk".utf8), due: nil, priority: 0,
                               flagged: false, section: nil, parentTitle: [UInt8](), notes: [UInt8]())
        #expect(bare.hash == referenceFNV(Array("a.md\u{0}Buy milk\u{0}\u{1}\u{0}\u{0}0\u{0}0\u{0}\u{0}\u{0}".utf8)))
    }
}

// MARK: - Naming tasks

@Suite("which ref names a task")
struct RefNamingTests {
    func names(_ text: String, path: String = "home.md") -> [Ref] { Ref.names(path: path, document: Document(text)) }

    @Test("a unique title is named by its title ref, whatever its metadata")
    func uniqueTitle() {
        let plain = names("- [ ] Water plants\n- [ ] Call mum\n")
        let changed = names("- [ ] Call mum !!\n- [x] Water plants #flag due:2026-12-01 done:2026-11-30\n  note\n")
        #expect(plain[0] == Ref(path: "home.md", title: "Water plants", occurrence: 0))
        #expect(changed[1] == plain[0])
        #expect(changed[0] == plain[1])
    }

    @Test("same-titled tasks are named by their content, not their order or number")
    func sameTitles() {
        let three = names("- [ ] Buy milk\n- [ ] Buy milk due:2026-12-04\n- [ ] Buy milk !!\n")
        #expect(Set(three).count == 3)
        #expect(!three.contains(Ref(path: "home.md", title: "Buy milk", occurrence: 0)))
        let reordered = names("- [ ] Buy milk !!\n- [ ] Buy milk\n- [ ] Buy milk due:2026-12-04\n")
        #expect(reordered == [three[2], three[0], three[1]])
        let oneGone = names("- [ ] Buy milk due:2026-12-04\n- [ ] Buy milk !!\n")
        #expect(oneGone == [three[1], three[2]])
        // Completing one of them changes no ref.
        let completed = names("- [ ] Buy milk\n- [x] Buy milk due:2026-12-04 done:2026-11-30\n- [ ] Buy milk !!\n")
        #expect(completed == three)
    }

    @Test("twins get refs of their own: the content ref, then its twin refs, in document order")
    func twins() {
        let twins = names("- [ ] Buy milk\n- [x] Buy milk\n- [ ] Buy milk\n- [ ] Buy milk !\n")
        #expect(Set(twins).count == 4)
        #expect(twins[1] == twins[0].twin(1) && twins[2] == twins[0].twin(2))
        #expect(twins[0].twin(0) == twins[0])
        // The content ref names the first twin, as it named all of them before twins had refs of their own.
        #expect(names("- [ ] Buy milk\n- [ ] Buy milk !\n")[0] == twins[0])
    }

    @Test("titles are the same only when byte-identical")
    func byteIdentity() {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"  // equal as Swift strings, different bytes
        let refs = names("- [ ] \(composed)\n- [ ] \(decomposed)\n", path: "l.md")
        #expect(refs[0] == Ref(path: Array("l.md".utf8), title: Array(composed.utf8)))
        #expect(refs[1] == Ref(path: Array("l.md".utf8), title: Array(decomposed.utf8)))
    }

    @Test("an id token names the task by its id, in any list and under any title")
    func idRef() {
        let here = names("- [ ] Buy milk id:k7q2\n- [ ] Buy milk\n", path: "a.md")
        let there = names("- [ ] Buy oat milk due:2026-12-01 id:k7q2\n", path: "b.md")
        #expect(here[0] == Ref(id: Array("k7q2".utf8)))
        #expect(there[0] == here[0])
        #expect(here[1] != Ref(path: "a.md", title: "Buy milk", occurrence: 0))
    }

    @Test("a path, a title and content each change the ref")
    func sensitivity() {
        let base = names("- [ ] Task\n", path: "a.md")[0]
        #expect(base != names("- [ ] Task\n", path: "b.md")[0])
        #expect(base != names("- [ ] task\n", path: "a.md")[0])
        // The NUL separators keep path and title apart.
        #expect(names("- [ ] c\n", path: "ab")[0] != names("- [ ] bc\n", path: "a")[0])
    }
}

// MARK: - Index

@Suite("ref index")
struct RefIndexTests {
    @Test("short refs are unique, at least 3 symbols, and as short as uniqueness allows")
    func shortestUniquePrefixes() {
        let refs = randomRefs(1500, seed: 3)
        let index = RefIndex(refs)
        let texts = refs.map(\.description)
        let bytes = texts.map { Array($0.utf8) }
        func shared(_ prefix: String, except i: Int) -> Bool {
            let p = Array(prefix.utf8)
            return bytes.indices.contains { $0 != i && bytes[$0].starts(with: p) }
        }
        var shown = Set<String>()
        for i in refs.indices {
            let short = index.shortRef(at: i)
            #expect(short.count >= 3)
            #expect(texts[i].hasPrefix(short))
            shown.insert(short)
            // Brute force: no other full ref starts with it, and one symbol less would be shared.
            #expect(!shared(short, except: i), "\(short)")
            if short.count > 3 {
                #expect(shared(String(short.dropLast()), except: i), "\(short)")
            }
        }
        #expect(shown.count == refs.count)
    }

    @Test("a large set's short refs match those found by sorting the texts", arguments: [4096, 20000])
    func largeAgainstSortedTexts(count: Int) {
        let refs = randomRefs(count, seed: UInt64(count))
        let index = RefIndex(refs)
        let texts = refs.map { Array($0.description.utf8) }
        let sorted = texts.indices.sorted { texts[$0].lexicographicallyPrecedes(texts[$1]) }
        func common(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        for (rank, i) in sorted.enumerated() {
            var shared = 0
            if rank > 0 { shared = common(texts[i], texts[sorted[rank - 1]]) }
            if rank + 1 < sorted.count { shared = max(shared, common(texts[i], texts[sorted[rank + 1]])) }
            let expected = String(decoding: texts[i].prefix(max(3, shared + 1)), as: UTF8.self)
            #expect(index.shortRef(at: i) == expected)
        }
    }

    @Test("the short-ref lengths measured a group at a time are the index's", arguments: [0, 1, 1500, 20000])
    func lengthsByGroups(count: Int) {
        var refs = randomRefs(count, seed: UInt64(count) + 7)
        // Equal refs, and refs sharing four to thirteen symbols, which only a neighbour tells apart.
        refs += refs.prefix(count / 10)
        for k in 0..<min(count, 200) {
            let text = refs[k].description
            refs.append(Ref(hash: hash(startingWith: String(text.prefix(4 + k % 10)), rest: UInt64(k))))
        }
        let index = RefIndex(refs)
        let lengths = RefIndex.shortRefLengths(of: refs.map(\.hash))
        #expect(lengths == refs.indices.map { UInt8(index.shortRefLength(at: $0)) })
        // Long lengths were measured, and equal refs share theirs.
        #expect(count < 1500 || lengths.contains { $0 >= 6 })
        #expect(count < 10 || lengths[0] == lengths[count])
    }

    @Test("the lengths split symbol by symbol are the sorted index's, for clusters, copies and extremes",
          arguments: [1, 2, 3])
    func lengthsOfClusters(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var hashes: [UInt64] = []
        // Clusters of 2 to 40 refs sharing 3 to 13 symbols, some refs in two or three copies.
        for _ in 0..<300 {
            let shared = Int(rng.next() % 11) + 3
            let base = rng.next()
            var scale: UInt64 = 1
            for _ in 0..<shared { scale &*= 27 }
            let size = Int(rng.next() % 39) + 2
            for _ in 0..<size {
                let hash = base % scale + (rng.next() % (UInt64.max / scale)) * scale
                hashes += Array(repeating: hash, count: rng.next() % 4 == 0 ? Int(rng.next() % 2) + 2 : 1)
            }
        }
        // A group of copies alone, a group of copies beside one other ref, and the largest hashes.
        let copies = hash(startingWith: "zzz", rest: 5)
        hashes += [copies, copies, copies, hash(startingWith: "222", rest: 1), hash(startingWith: "222", rest: 1),
                   hash(startingWith: "222", rest: 2), UInt64.max, UInt64.max - 1, UInt64.max - 27]
        hashes.shuffle(using: &rng)
        let index = RefIndex(hashes.map { Ref(hash: $0) })
        let lengths = RefIndex.shortRefLengths(of: hashes)
        #expect(firstDifference(lengths, index) == nil)
        #expect(lengths.contains(14) && lengths.contains(3))
    }

    @Test("a set large enough to be measured on several threads gets the sorted index's lengths")
    func lengthsOnThreads() {
        let count = RefIndex.parallelMinimum + 5000
        var refs = randomRefs(count, seed: 99)
        refs += refs.prefix(3000)
        for k in 0..<400 {
            refs.append(Ref(hash: hash(startingWith: String(refs[k].description.prefix(4 + k % 10)), rest: UInt64(k) &* 7919)))
        }
        let index = RefIndex(refs)
        let lengths = RefIndex.shortRefLengths(of: refs.map(\.hash))
        #expect(lengths.count == refs.count)
        #expect(firstDifference(lengths, index) == nil)
    }

    /// The first position whose length differs from the index's, with both lengths (nil when none).
    private func firstDifference(_ lengths: [UInt8], _ index: RefIndex) -> (position: Int, measured: UInt8, sorted: Int)? {
        lengths.indices.first { Int(lengths[$0]) != index.shortRefLength(at: $0) }
            .map { ($0, lengths[$0], index.shortRefLength(at: $0)) }
    }

    @Test("refs sharing a long prefix get one symbol more than they share")
    func crafted() {
        let refs = [
            Ref(hash: hash(startingWith: "bcdfg2", rest: 1)),
            Ref(hash: hash(startingWith: "bcdfg3", rest: 2)),
            Ref(hash: hash(startingWith: "bc7", rest: 3)),
            Ref(hash: hash(startingWith: "zzz", rest: 4)),
            Ref(hash: hash(startingWith: "bcdfg3h", rest: 5)),
        ]
        let index = RefIndex(refs)
        #expect(index.shortRef(at: 0) == "bcdfg2")
        #expect(index.shortRef(at: 1) == "bcdfg3" + String(refs[1].description.dropFirst(6).prefix(1)))
        #expect(index.shortRef(at: 1).count == 7)
        #expect(index.shortRef(at: 4) == "bcdfg3h")
        #expect(index.shortRef(at: 2) == "bc7")
        #expect(index.shortRef(at: 3) == "zzz")
        #expect(index.shortRef(for: refs[0]) == "bcdfg2")
        #expect(index.shortRef(for: refs[3]) == "zzz")
    }

    @Test("a ref that is not in the index gets the prefix it would need")
    func outsider() {
        let refs = [Ref(hash: hash(startingWith: "bcdf", rest: 1)), Ref(hash: hash(startingWith: "x9", rest: 2))]
        let index = RefIndex(refs)
        #expect(index.shortRef(for: Ref(hash: hash(startingWith: "bcdg"))) == "bcdg")
        #expect(index.shortRef(for: Ref(hash: hash(startingWith: "222"))) == "222")
        #expect(index.shortRef(for: Ref(hash: hash(startingWith: "x9k"))) == "x9k")
    }

    @Test("equal full refs share the short ref that sets them apart from the others")
    func duplicates() {
        let ref = Ref(path: "a.md", title: "x", occurrence: 0)
        let index = RefIndex([ref, ref, Ref(path: "a.md", title: "y", occurrence: 0)])
        #expect(index.shortRef(at: 0) == index.shortRef(at: 1))
        #expect(index.shortRef(at: 0).count == 3)
        #expect(index.shortRef(at: 2).count == 3)
    }

    @Test("a lone ref and an empty index")
    func tiny() {
        let ref = Ref(hash: 0xc749_2f24_bbe0_c53a)
        #expect(RefIndex([ref]).shortRef(at: 0) == "d2f")
        #expect(RefIndex([]).shortRef(for: ref) == "d2f")
        #expect(RefIndex([]).indices(withRefPrefix: "d2f").isEmpty)
    }

    @Test("ref prefixes find every task that starts with them, in any case")
    func prefixLookup() {
        let refs = randomRefs(2000, seed: 4)
        let index = RefIndex(refs)
        let texts = refs.map(\.description)
        for probe in ["2", "z", "bc", "d2f", "x9k", texts[17], String(texts[5].prefix(13)), String(texts[9].prefix(4))] {
            let expected = texts.indices.filter { texts[$0].hasPrefix(probe) }
            #expect(index.indices(withRefPrefix: probe) == expected, "\(probe)")
            #expect(index.indices(withRefPrefix: probe.uppercased()) == expected, "\(probe)")
        }
        #expect(index.indices(withRefPrefix: "").isEmpty)
        #expect(index.indices(withRefPrefix: "bca").isEmpty)
        #expect(index.indices(withRefPrefix: texts[0] + "2").isEmpty)
        #expect(index.indices(withRefPrefix: "zzzzzzzzzzzzzz").isEmpty)
    }

    @Test("100,000 tasks get unique short refs")
    func large() {
        var refs: [Ref] = []
        for list in 0..<1000 {
            let text = (0..<100).map { "- [ ] Task \($0 % 37)\($0 < 37 ? "" : " due:2026-12-1\($0 / 37)")\n" }.joined()
            refs += Ref.names(path: "lists/\(list).md", document: Document(text))
        }
        let index = RefIndex(refs)
        let shown = Set(refs.indices.map(index.shortRef(at:)))
        #expect(shown.count == 100_000)
        #expect(refs.indices.allSatisfy { index.indices(withRefPrefix: index.shortRef(at: $0)) == [$0] })
    }
}

