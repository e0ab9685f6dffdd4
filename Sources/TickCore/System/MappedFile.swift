#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A regular file mapped into memory privately, for reading: a change made through `base` (after
/// `allowWrites`) stays in this process (copy on write), never reaching the file.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let length: Int
    /// The file's status when it was mapped.
    let status: stat
    /// Maps the whole of the open regular file `fd` (its pages are read as they are touched); nil
    /// when it is empty or cannot be mapped.
    init?(fd: Int32, status: stat) {
        let length = Int(status.st_size)
        guard length > 0, let map = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED
        else { return nil }
        base = map
        self.length = length
        self.status = status
    }

    /// A private copy of `bytes` in memory laid out as a mapped file would be (page-aligned).
    init?(copying bytes: [UInt8]) {
        length = bytes.count
        guard length > 0, let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              map != MAP_FAILED
        else { return nil }
        bytes.withUnsafeBytes { map.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        base = map
        status = stat()
    }

    deinit { munmap(base, length) }

    /// Lets this process write the `count` bytes at `start`, in a private mapping (or in memory of
    /// its own): the pages holding them become writable, copied on their first write. False when
    /// the system refuses.
    static func allowWrites(_ start: UnsafeRawPointer, count: Int) -> Bool {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let from = Int(bitPattern: start) / page * page
        let to = (Int(bitPattern: start) + count + page - 1) / page * page
        return mprotect(UnsafeMutableRawPointer(bitPattern: from), to - from, PROT_READ | PROT_WRITE) == 0
    }
}

/// A lock for the rare slow paths that more than one thread could take at once.
final class StateLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
