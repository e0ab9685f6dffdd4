import Testing
import TickFormat
@testable import TickCore

/// `obsidian.global-filter` (README "Configuration", FORMAT.md 11): a tag, off by default; a `#`
/// that starts its value is the tag's, not a comment.
@Suite("Configuration: obsidian.global-filter")
struct GlobalFilterSettingTests {
    static func read(_ texts: String...) -> (settings: Settings, warnings: [String]) {
        var settings = Settings()
        var warnings: [String] = []
        for (k, text) in texts.enumerated() {
            Configuration.parse(Array(text.utf8), file: "/conf\(k + 1)", into: &settings, warnings: &warnings)
        }
        return (settings, warnings)
    }

    @Test("off by default; a tag turns it on, its # being no comment while a later ' #' still is")
    func readsATag() {
        #expect(Self.read("").settings.globalFilter == nil)
        #expect(Settings().globalFilter == nil)
        let plain = Self.read("obsidian.global-filter = #task\n")
        #expect(plain.settings.globalFilter?.text == "#task")
        #expect(plain.warnings.isEmpty)
        #expect(plain.settings.values["obsidian.global-filter"] == "#task")
        #expect(plain.settings.origins["obsidian.global-filter"] == "/conf1:1")
        let commented = Self.read("# my vault\nobsidian.global-filter=#todo/work   # as in Obsidian\n")
        #expect(commented.settings.globalFilter?.text == "#todo/work")
        #expect(commented.warnings.isEmpty)
        // Other keys keep the rule: a `#` after a space starts a comment.
        #expect(Self.read("default-list = #work\n").warnings == ["/conf1:1: bad value '' for default-list (expected a list's name, file name or path); ignored"])
    }

    @Test("an empty value turns the filter off, also over the user's file")
    func emptyTurnsItOff() {
        let both = Self.read("obsidian.global-filter = #task\n", "obsidian.global-filter =\n")
        #expect(both.settings.globalFilter == nil)
        #expect(both.warnings.isEmpty)
        #expect(both.settings.origins["obsidian.global-filter"] == "/conf2:1")
    }

    @Test("a value that is not a tag is a warning naming the file, the line and the key, and the key keeps its value",
          arguments: [("task", "a tag: '#' and letters, digits, '_', '-' or '/'"),
                      ("#.", "a tag: '#' and letters, digits, '_', '-' or '/'"),
                      ("#to do", "a tag: '#' and letters, digits, '_', '-' or '/'"),
                      ("#task!", "a tag: '#' and letters, digits, '_', '-' or '/'"),
                      ("#Flag", "a tag other than #flag, which flags a task")])
    func badValues(value: String, expected: String) {
        let read = Self.read("obsidian.global-filter = #keep\n\nobsidian.global-filter = \(value)\n")
        #expect(read.warnings == ["/conf1:3: bad value '\(value)' for obsidian.global-filter (expected \(expected)); ignored"])
        #expect(read.settings.globalFilter?.text == "#keep")
    }

    @Test("tick config writes a tag over a tag: the old value's bytes are replaced, not read as a comment")
    func writesOverATag() throws {
        let key = try #require(Configuration.key(named: "obsidian.global-filter"))
        #expect(Configuration.problem(with: "#task", for: key) == nil)
        #expect(Configuration.problem(with: "", for: key) == nil)
        #expect(Configuration.unwritable("#task", for: "obsidian.global-filter") == nil)
        #expect(Configuration.unwritable("#task", for: "default-list") != nil)
        let old = Array("obsidian.global-filter = #task  # vault\r\n".utf8)
        let new = Configuration.setting("obsidian.global-filter", to: "#todo", in: old)
        #expect(String(decoding: new, as: UTF8.self) == "obsidian.global-filter = #todo  # vault\r\n")
        let off = Configuration.setting("obsidian.global-filter", to: "", in: new)
        #expect(String(decoding: off, as: UTF8.self) == "obsidian.global-filter =   # vault\r\n")
        #expect(Self.read(String(decoding: off, as: UTF8.self)).settings.globalFilter == nil)
        let on = Configuration.setting("obsidian.global-filter", to: "#task", in: off)
        #expect(Self.read(String(decoding: on, as: UTF8.self)).settings.globalFilter?.text == "#task")
    }
}
