import Testing
import TickFormat
@testable import TickCore

/// Lists whose display names are the same ignoring case and accents: each is labelled with its
/// file, and a LIST argument names one of them by its path or its exact spelling, never the wrong
/// one silently.
@Suite("lists with the same name")
struct SameNamedListTests {
    /// Lists at `paths`, each with the heading given.
    static func library(_ lists: [(path: String, heading: String)]) -> Library {
        Library(documents: lists.map { path, heading in
            (ListFile(path: path, absolutePath: "/f/" + path), Document("# \(heading)\n\n- [ ] a task\n"))
        })
    }

    static let lists = library([("Work.md", "Work"), ("work.md", "work"), ("job.md", "WORK"),
                                ("a/uber.md", "Über"), ("b/x.md", "Uber"), ("home.md", "Home")])

    func path(_ resolution: Resolution<Int>) -> String {
        switch resolution {
        case .found(let i): return Self.lists.lists[i].file.path
        case .ambiguous(let candidates): return "ambiguous: " + candidates.map { Self.lists.lists[$0].file.path }.sorted().joined(separator: " ")
        case .notFound: return "not found"
        }
    }

    @Test("names that differ only by case or accents are each followed by their file; a name of its own is not")
    func labels() {
        let labels = Dictionary(uniqueKeysWithValues: zip(Self.lists.lists.map(\.file.path), Self.lists.listLabels()))
        #expect(labels == ["Work.md": "Work (Work.md)", "work.md": "work (work.md)", "job.md": "WORK (job.md)",
                           "a/uber.md": "Über (a/uber.md)", "b/x.md": "Uber (b/x.md)", "home.md": "Home"])
        // Composed and decomposed accents are the same name too.
        let forms = Self.library([("a.md", "Caf\u{E9}"), ("b.md", "Cafe\u{301}"), ("c.md", "Cafés")])
        #expect(forms.listLabels().sorted() == ["Caf\u{E9} (a.md)", "Cafe\u{301} (b.md)", "Cafés"].sorted())
    }

    @Test("a path names its file exactly; ignoring case it must be unique")
    func byPath() {
        #expect(path(Self.lists.resolve(list: "work.md")) == "work.md")
        #expect(path(Self.lists.resolve(list: "Work")) == "Work.md")
        #expect(path(Self.lists.resolve(list: "work")) == "work.md")
        #expect(path(Self.lists.resolve(list: "b/x")) == "b/x.md")
        #expect(path(Self.lists.resolve(list: "B/X.md")) == "b/x.md")
        #expect(path(Self.lists.resolve(list: "WORK")) == "ambiguous: Work.md work.md")
    }

    @Test("a name ignoring case and accents: unique, or the one spelled exactly, else ambiguous")
    func byName() {
        #expect(path(Self.lists.resolve(list: "Über")) == "a/uber.md")
        #expect(path(Self.lists.resolve(list: "Uber")) == "b/x.md")
        #expect(path(Self.lists.resolve(list: "UBER")) == "ambiguous: a/uber.md b/x.md")
        #expect(path(Self.lists.resolve(list: "HOME")) == "home.md")
        #expect(path(Self.lists.resolve(list: "hom")) == "home.md")
        #expect(path(Self.lists.resolve(list: "ub")) == "ambiguous: a/uber.md b/x.md")
        #expect(path(Self.lists.resolve(list: "nothing")) == "not found")
        let two = Self.library([("a/work.md", "Work"), ("b/work.md", "Work")])
        #expect(two.resolve(list: "Work") == .ambiguous([0, 1]))
        #expect(two.resolve(list: "b/work") == .found(1))
    }
}
