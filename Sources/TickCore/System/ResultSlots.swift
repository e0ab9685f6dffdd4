/// Fixed slots that concurrent workers fill, each worker its own index.
final class ResultSlots<Value>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutablePointer<Value?>.allocate(capacity: max(count, 1))
        base.initialize(repeating: nil, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(i: Int) -> Value? {
        get { base[i] }
        set { base[i] = newValue }
    }
}
