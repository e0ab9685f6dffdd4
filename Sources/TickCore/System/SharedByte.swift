import CTickSystem

/// A byte of flags that several threads read and change: loads acquire, stores release. Owned by
/// whoever allocates it (`make` and `free`).
struct SharedByte: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<UInt8>

    static func make(_ value: UInt8) -> SharedByte {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return SharedByte(pointer: pointer)
    }

    func free() { pointer.deallocate() }

    @inline(__always) func load() -> UInt8 { tick_atomic_load_byte(pointer) }

    @inline(__always) func store(_ value: UInt8) { tick_atomic_store_byte(pointer, value) }
}
