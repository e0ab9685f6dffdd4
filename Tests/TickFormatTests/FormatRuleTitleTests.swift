import Testing
import TickFormat

// FORMAT.md section 5: the title line, its metadata tokens and the title.

@Suite("5 The title line and its words")
struct FormatRuleTitleLineTests {
    /// The Unicode space separators (category Zs) that FORMAT.md lists, besides the ASCII space.
    static let spaceSeparators: [Unicode.Scalar] =
        [0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
         0x202F, 0x205F, 0x3000].map { Unicode.Scalar($0)! }

    @Test("the title line is the first line of the paragraph: later lines hold no tokens")
    func titleLineIsFirstLine() throws {
        let document = parsed("- [ ] Call mum\n  due:2026-12-01 !!\n")
        #expect(document.tasks.map(\.title) == ["Call mum"])
        #expect(document.tasks[0].due == nil)
        #expect(document.tasks[0].priority == .none)
        #expect(document.notes == ["due:2026-12-01 !!"])
    }

    @Test("every Unicode space separator separates words like a space", arguments: spaceSeparators)
    func unicodeSeparators(separator: Unicode.Scalar) throws {
        let s = String(Character(separator))
        let task = try onlyTask("- [ ] Pay\(s)rent\(s)due:2026-12-01\(s)#flag\n")
        #expect(task.due == DueDate(iso: "2026-12-01"))
        #expect(task.flagged)
        #expect(task.title == "Pay\(s)rent")
    }

    @Test("a no-break space before due: does not hide the due date")
    func noBreakSpaceBeforeDue() throws {
        let task = try onlyTask("- [ ] Pay rent\u{00A0}due:2026-12-01\n")
        #expect(task.due == DueDate(iso: "2026-12-01"))
        #expect(task.title == "Pay rent")
    }

    @Test("other characters do not separate words")
    func otherCharactersDoNotSeparate() throws {
        // U+200B zero width space is not in category Zs.
        let task = try onlyTask("- [ ] Pay\u{200B}due:2026-12-01\n")
        #expect(task.due == nil)
        #expect(task.title == "Pay\u{200B}due:2026-12-01")
    }

    @Test("tokens count anywhere in the title line, not only at its end")
    func tokensAnywhere() throws {
        let task = try onlyTask("- [ ] #flag Call !! mum due:2026-12-01 today\n")
        #expect(task.flagged)
        #expect(task.priority == .medium)
        #expect(task.due == DueDate(iso: "2026-12-01"))
        #expect(task.title == "Call mum today")
    }

    @Test("the example: a token inside a code span is not a token")
    func insideCodeSpan() throws {
        let task = try onlyTask("- [ ] Write `due:2026-01-01` parser\n")
        #expect(task.due == nil)
        #expect(task.title == "Write `due:2026-01-01` parser")
    }

    /// An edit of a token before a code span that closes on a later line of the paragraph: what
    /// the task should read as afterwards is read with those lines too, as the parse reads it, so
    /// the edit is made (it was once refused as a change of the list's structure).
    @Test("a code span closing on a later line: an edit of a token before it keeps the words inside it out of the tags",
          arguments: [false, true])
    func codeSpanClosingLater(editing: Bool) throws {
        let bytes = Array("# L\n\n- [ ] a due:2026-01-01 `x #t\n  y` z\n".utf8)
        let document = editing ? Document(editing: bytes) : Document(bytes: bytes)
        #expect(document.tasks[0].tags == [])
        let edited = try document.settingDue(0, nil).document
        #expect(String(decoding: edited.serialize(), as: UTF8.self) == "# L\n\n- [ ] a `x #t\n  y` z\n")
        #expect(edited.tasks[0].due == nil)
        #expect(edited.tasks[0].tags == [])
        // Many tasks at once take the same reading, on the kept outline or through cmark.
        let together = try #require(try document.applyingTogether([(0, .due(nil))]))
        #expect(together.serialize() == edited.serialize())
    }

    @Test("a code span between longer backtick runs hides tokens with spaces in it")
    func longerBacktickRuns() throws {
        let task = try onlyTask("- [ ] Write `` a` !! #flag `` now\n")
        #expect(task.priority == .none)
        #expect(!task.flagged)
        #expect(task.tags == [])
    }

    @Test("backtick runs of different lengths do not make a code span")
    func unmatchedBacktickRuns() throws {
        let task = try onlyTask("- [ ] Write ``x` due:2026-01-01\n")
        #expect(task.due == DueDate(iso: "2026-01-01"))
        #expect(task.title == "Write ``x`")
    }

    @Test("a backslash-escaped backtick does not open a code span")
    func escapedBacktick() throws {
        let task = try onlyTask("- [ ] Write \\` due:2026-01-01 `\n")
        #expect(task.due == DueDate(iso: "2026-01-01"))
    }

    @Test("a code span may close on a later line of the paragraph")
    func codeSpanClosesLater() throws {
        let task = try onlyTask("- [ ] Write `code due:2026-01-01\n  more` !!\n")
        #expect(task.due == nil)
        #expect(task.priority == .none)
    }

    @Test("a backtick never closed is not a code span")
    func unclosedBacktick() throws {
        let task = try onlyTask("- [ ] Write `code due:2026-01-01\n  more\n")
        #expect(task.due == DueDate(iso: "2026-01-01"))
    }
}

@Suite("5.1 Due date")
struct FormatRuleDueTests {
    @Test("the example: due:YYYY-MM-DD is the due date")
    func dueDate() throws {
        let task = try onlyTask("- [ ] Pay rent due:2026-12-01\n")
        #expect(task.due == DueDate(day: try day("2026-12-01")))
        #expect(task.due?.minutes == nil)
        #expect(task.title == "Pay rent")
    }

    @Test("the example: due:YYYY-MM-DDTHH:MM is a due date with a local time")
    func dueDateTime() throws {
        let task = try onlyTask("- [ ] Dentist due:2026-12-03T09:30 bring the form\n")
        #expect(task.due == DueDate(day: try day("2026-12-03"), minutes: 9 * 60 + 30))
        #expect(task.title == "Dentist bring the form")
    }

    @Test("times run from 00:00 to 23:59")
    func timeBounds() throws {
        #expect(try onlyTask("- [ ] a due:2026-12-03T00:00\n").due?.minutes == 0)
        #expect(try onlyTask("- [ ] a due:2026-12-03T23:59\n").due?.minutes == 23 * 60 + 59)
        #expect(try onlyTask("- [ ] a due:2026-12-03T24:00\n").due == nil)
        #expect(try onlyTask("- [ ] a due:2026-12-03T12:60\n").due == nil)
    }

    @Test("a time zone or seconds make the value malformed")
    func noTimeZone() throws {
        for value in ["2026-12-03T09:30Z", "2026-12-03T09:30+01:00", "2026-12-03T09:30:00", "2026-12-3", "20261203"] {
            let task = try onlyTask("- [ ] a due:\(value)\n")
            #expect(task.due == nil, "\(value)")
            #expect(task.title == "a due:\(value)")
        }
    }

    @Test("the date must be a real calendar date")
    func realDate() throws {
        #expect(try onlyTask("- [ ] a due:2028-02-29\n").due == DueDate(iso: "2028-02-29"))
        #expect(try onlyTask("- [ ] a due:2026-02-29\n").due == nil)
        #expect(try onlyTask("- [ ] a due:2026-04-31\n").due == nil)
        #expect(try onlyTask("- [ ] a due:2026-13-01\n").due == nil)
        #expect(try onlyTask("- [ ] a due:2026-00-10\n").due == nil)
    }

    @Test("the example: an impossible date stays in the title and is reported")
    func impossibleDate() throws {
        let document = parsed("- [ ] Party due:2026-02-30\n")
        #expect(document.tasks.map(\.title) == ["Party due:2026-02-30"])
        #expect(document.tasks.first?.due == nil)
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.line == 1)
        #expect(document.diagnostics.first?.column == 13)
        #expect(document.diagnostics.first?.message.contains("due:2026-02-30") == true)
    }

    @Test("the example: due:soon stays in the title and is reported")
    func dueSoon() throws {
        let document = parsed("- [ ] Party due:soon\n")
        #expect(document.tasks.map(\.title) == ["Party due:soon"])
        #expect(document.tasks.first?.due == nil)
        #expect(document.diagnostics.map(\.column) == [13])
        #expect(document.diagnostics.first?.message.contains("malformed due date") == true)
    }
}

@Suite("5.2 Completion date")
struct FormatRuleDoneTests {
    @Test("the example: done:YYYY-MM-DD is the completion date")
    func doneDate() throws {
        let task = try onlyTask("- [x] Buy stamps done:2026-11-28\n")
        #expect(task.doneDate == (try day("2026-11-28")))
        #expect(task.title == "Buy stamps")
    }

    @Test("a malformed done: stays in the title and is reported")
    func malformed() throws {
        let document = parsed("- [x] Buy stamps done:2026-11-31\n- [x] b done:yesterday\n")
        #expect(document.tasks.map(\.title) == ["Buy stamps done:2026-11-31", "b done:yesterday"])
        #expect(document.tasks.map(\.doneDate) == [nil, nil])
        #expect(document.diagnostics.map(\.line) == [1, 2])
        #expect(document.diagnostics.map(\.column) == [18, 9])
        #expect(document.diagnostics.allSatisfy { $0.message.contains("malformed completion date") })
    }

    @Test("done: takes no time of day")
    func noTime() throws {
        #expect(try onlyTask("- [x] a done:2026-11-28T10:00\n").doneDate == nil)
    }
}

@Suite("5.3 Priority")
struct FormatRulePriorityTests {
    @Test("one, two or three ! are low, medium and high priority")
    func levels() throws {
        #expect(try onlyTask("- [ ] a !\n").priority == .low)
        #expect(try onlyTask("- [ ] a !!\n").priority == .medium)
        #expect(try onlyTask("- [ ] a !!!\n").priority == .high)
        #expect(try onlyTask("- [ ] a\n").priority == .none)
    }

    @Test("the example: !! is medium priority and not part of the title")
    func callMum() throws {
        let task = try onlyTask("- [ ] Call mum !!\n")
        #expect(task.priority == .medium)
        #expect(task.title == "Call mum")
    }

    @Test("the example: Wow! is one word, no priority")
    func wow() throws {
        let task = try onlyTask("- [ ] Wow!\n")
        #expect(task.priority == .none)
        #expect(task.title == "Wow!")
    }

    @Test("the example: four marks are title text")
    func fourMarks() throws {
        let task = try onlyTask("- [ ] Loud !!!!\n")
        #expect(task.priority == .none)
        #expect(task.title == "Loud !!!!")
    }

    @Test("the example: ! after a no-break space is punctuation",
          arguments: ["\u{00A0}", "\u{202F}"])
    func frenchPunctuation(space: String) throws {
        let task = try onlyTask("- [ ] Bravo\(space)!\n")
        #expect(task.priority == .none)
        #expect(task.title == "Bravo\(space)!")
    }

    @Test("the example: ! after an ordinary space is a priority")
    func ordinarySpace() throws {
        let task = try onlyTask("- [ ] Bravo !\n")
        #expect(task.priority == .low)
        #expect(task.title == "Bravo")
    }

    @Test("!! and !!! after a no-break space are punctuation too")
    func frenchLongerMarks() throws {
        #expect(try onlyTask("- [ ] Quoi\u{00A0}!!\n").priority == .none)
        #expect(try onlyTask("- [ ] Quoi\u{202F}!!!\n").priority == .none)
    }

    @Test("! after another Unicode space is a priority")
    func otherUnicodeSpace() throws {
        let task = try onlyTask("- [ ] Bravo\u{2009}!\n")
        #expect(task.priority == .low)
        #expect(task.title == "Bravo")
    }
}

@Suite("5.4 Flag")
struct FormatRuleFlagTests {
    @Test("the example: #flag flags the task and is not part of the title")
    func flag() throws {
        let task = try onlyTask("- [ ] Renew passport #flag\n")
        #expect(task.flagged)
        #expect(task.title == "Renew passport")
        #expect(task.tags == [])
    }

    @Test("the example: #FLAG flags too, in any letter case")
    func anyCase() throws {
        #expect(try onlyTask("- [ ] Renew passport #FLAG\n").flagged)
        #expect(try onlyTask("- [ ] Renew passport #Flag\n").flagged)
        #expect(try onlyTask("- [ ] Renew passport #fLaG\n").title == "Renew passport")
    }

    @Test("a longer word is a tag, not a flag")
    func longerWord() throws {
        let task = try onlyTask("- [ ] Renew #flags\n")
        #expect(!task.flagged)
        #expect(task.tags == ["flags"])
        #expect(task.title == "Renew #flags")
    }

    @Test("without #flag a task is not flagged")
    func unflagged() throws {
        #expect(try !onlyTask("- [ ] Renew passport\n").flagged)
    }
}

@Suite("5.5 Tags")
struct FormatRuleTagTests {
    @Test("the example: tags stay in the title and are listed")
    func tags() throws {
        let task = try onlyTask("- [ ] Fix the gate #home #diy/wood\n")
        #expect(task.title == "Fix the gate #home #diy/wood")
        #expect(task.tags == ["home", "diy/wood"])
    }

    @Test("the example: #123 is the tag 123")
    func digits() throws {
        #expect(try onlyTask("- [ ] Issue #123\n").tags == ["123"])
    }

    @Test("the example: # not at the start of a word is no tag")
    func notAtStart() throws {
        #expect(try onlyTask("- [ ] C# basics\n").tags == [])
    }

    @Test("the tag is the longest run after #: #home, is the tag home")
    func longestRun() throws {
        let task = try onlyTask("- [ ] Buy #home, #a_b-c/d!x\n")
        #expect(task.tags == ["home", "a_b-c/d"])
        #expect(task.title == "Buy #home, #a_b-c/d!x")
    }

    @Test("letters are not only ASCII")
    func unicodeLetters() throws {
        #expect(try onlyTask("- [ ] Buy #café\n").tags == ["café"])
    }

    @Test("digits are 0 to 9 only: a digit of another script is no tag character")
    func otherDigits() throws {
        #expect(try onlyTask("- [ ] Page #\u{0663} #a\u{0663}\n").tags == ["a"])
    }

    @Test("an ASCII name runs into letters of other scripts, and stops at the first that is no letter")
    func mixedScripts() throws {
        #expect(try onlyTask("- [ ] Sand #diy/wöod #über #ab·c\n").tags == ["diy/wöod", "über", "ab"])
    }

    @Test("each ASCII character is in a tag exactly when it is a letter, a digit, _, - or /")
    func asciiTagCharacters() throws {
        // The backtick opens a code span and the space ends the word: neither can be tried here.
        for code in UInt8(0x21)...UInt8(0x7E) where code != UInt8(ascii: "`") {
            let c = Character(Unicode.Scalar(code))
            let inName = c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-" || c == "/")
            let task = try onlyTask("- [ ] Buy #a\(c)b\n")
            #expect(task.tags == [inName ? "a\(c)b" : "a"], "character \(c)")
        }
    }

    @Test("# followed by no letter, digit, _, - or / is no tag")
    func emptyTag() throws {
        #expect(try onlyTask("- [ ] a # #, #!\n").tags == [])
    }

    @Test("a tag inside a code span is not a tag")
    func tagInCode() throws {
        #expect(try onlyTask("- [ ] Write `#home` now\n").tags == [])
    }
}

@Suite("5.6 Keys and repeated tokens")
struct FormatRuleRepeatTests {
    @Test("keys are lower case: Due: and DONE: are title text and reported")
    func upperCaseKeys() throws {
        let document = parsed("- [ ] Pay Due:2026-12-01 DONE:2026-11-28\n")
        #expect(document.tasks.map(\.title) == ["Pay Due:2026-12-01 DONE:2026-11-28"])
        #expect(document.tasks.first?.due == nil)
        #expect(document.tasks.first?.doneDate == nil)
        #expect(document.diagnostics.map(\.column) == [11, 26])
        #expect(document.diagnostics.allSatisfy { $0.message.contains("lower case") })
    }

    @Test("the example: the first due date counts; the second stays in the title and is reported")
    func secondDue() throws {
        let document = parsed("- [ ] Plan trip due:2026-12-01 due:2026-12-08\n")
        #expect(document.tasks.first?.due == DueDate(iso: "2026-12-01"))
        #expect(document.tasks.map(\.title) == ["Plan trip due:2026-12-08"])
        #expect(document.diagnostics.map(\.column) == [32])
        #expect(document.diagnostics.first?.message.contains("second due date") == true)
    }

    @Test("the example: the first priority counts; the second stays in the title")
    func secondPriority() throws {
        let document = parsed("- [ ] Plan trip ! !!\n")
        #expect(document.tasks.first?.priority == .low)
        #expect(document.tasks.map(\.title) == ["Plan trip !!"])
        #expect(document.diagnostics.map(\.column) == [19])
        #expect(document.diagnostics.first?.message.contains("second priority") == true)
    }

    @Test("a second completion date or #flag stays in the title and is reported")
    func secondDoneAndFlag() throws {
        let document = parsed("- [x] a done:2026-11-28 #flag done:2026-11-29 #FLAG\n")
        #expect(document.tasks.first?.doneDate == (try day("2026-11-28")))
        #expect(document.tasks.first?.flagged == true)
        #expect(document.tasks.map(\.title) == ["a done:2026-11-29 #FLAG"])
        #expect(document.diagnostics.map(\.column) == [31, 47])
        #expect(document.diagnostics.first?.message.contains("second completion date") == true)
        #expect(document.diagnostics.last?.message.contains("second #flag") == true)
    }

    @Test("a malformed value is not a token, so a later valid one is the first")
    func malformedThenValid() throws {
        let document = parsed("- [ ] a due:soon due:2026-12-01\n")
        #expect(document.tasks.first?.due == DueDate(iso: "2026-12-01"))
        #expect(document.tasks.map(\.title) == ["a due:soon"])
        #expect(document.diagnostics.count == 1)
    }
}

@Suite("5.7 The title")
struct FormatRuleTitleTests {
    @Test("the example: the tokens go, each with one separator")
    func example() throws {
        #expect(try onlyTask("- [ ] !! Call mum due:2026-12-01 #flag\n").title == "Call mum")
    }

    @Test("the example: a token takes only one of two separators before it")
    func oneOfTwoSeparators() throws {
        #expect(try onlyTask("- [ ] Call  !! mum\n").title == "Call  mum")
        #expect(try onlyTask("- [ ] Call due:2026-12-01  mum\n").title == "Call  mum")
    }

    @Test("a token right after the box takes the separator after it")
    func tokenAtStart() throws {
        #expect(try onlyTask("- [ ] !!  Call  mum\n").title == "Call  mum")
    }

    @Test("a token whose separator before was taken by an earlier token takes the one after it")
    func separatorAlreadyTaken() throws {
        #expect(try onlyTask("- [ ] !! #flag Call  mum\n").title == "Call  mum")
        #expect(try onlyTask("- [ ] Call !! #flag  mum\n").title == "Call  mum")
    }

    @Test("surrounding whitespace is trimmed, Unicode spaces too")
    func trimmed() throws {
        #expect(try onlyTask("- [ ]   Call mum \t\n").title == "Call mum")
        #expect(try onlyTask("- [ ] \u{00A0}Call mum\u{3000}\n").title == "Call mum")
        // With tokens taken out first.
        #expect(try onlyTask("- [ ] \u{00A0}Call mum !!\u{3000}\n").title == "Call mum")
        #expect(try onlyTask("- [ ] !! \u{2003}Call mum #flag \t\n").title == "Call mum")
    }

    @Test("a title line of tokens only gives an empty title")
    func onlyTokens() throws {
        let task = try onlyTask("- [ ] !! #flag due:2026-12-01\n")
        #expect(task.title == "")
        #expect(task.priority == .medium)
    }

    @Test("text that is not valid UTF-8 shows as U+FFFD; a NUL byte is kept as U+0000")
    func decoding() throws {
        let bytes: [UInt8] = Array("- [ ] a".utf8) + [0xC3, 0x28, 0x00] + Array(" b\n".utf8)
        let document = parsed(bytes: bytes)
        #expect(document.tasks.map(\.title) == ["a\u{FFFD}(\u{0} b"])
        let withToken: [UInt8] = Array("- [ ] a".utf8) + [0xC3, 0x28] + Array(" !! b\n".utf8)
        #expect(parsed(bytes: withToken).tasks.map(\.title) == ["a\u{FFFD}( b"])
    }

    @Test("a backslash glued to the last word is part of that word")
    func gluedBackslash() throws {
        let task = try onlyTask("- [ ] Call mum !!\\\n  ask about Sunday\n")
        #expect(task.title == "Call mum !!\\")
        #expect(task.priority == .none)
    }
}
