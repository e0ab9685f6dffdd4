import CTickSystem

/// Asks the processor to start loading the memory at `address`, to be read soon. A hint only: it
/// never faults, whatever the address, and changes no result.
@inline(__always) func prefetch(_ address: UnsafeRawPointer) {
    tick_prefetch(address)
}
