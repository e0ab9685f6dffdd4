import Testing
@testable import TickCore

/// A list's colour as a terminal shows it derives from `ListColor`, the one list of colours.
@Suite("list display colours")
struct ListDisplayColorTests {
    @Test("a palette colour for every name, the exact colour for hex, none for what ListColor refuses")
    func displayColors() {
        #expect(ListColor.Name.allCases.allSatisfy {
            if case .palette? = ListDisplayColor(color: $0.rawValue) { return true } else { return false }
        })
        #expect(ListDisplayColor(color: "Grey") == .palette(.gray))
        #expect(ListDisplayColor(color: "orange") == .palette(.yellow))
        #expect(ListDisplayColor(color: "#010203") == .exact(red: 1, green: 2, blue: 3))
        #expect(ListDisplayColor(color: "#abc") == .exact(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(ListDisplayColor(color: "pink") == nil)
        #expect(ListDisplayColor(color: nil) == nil)
    }
}
