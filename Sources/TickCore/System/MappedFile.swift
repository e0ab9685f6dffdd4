#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A regular file mapped into memory privately, for reading: a change made through `base` (after
/// `allowWrites`) stays in this process (copy on write), never reaching the file.
public final class MappedFile: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let length: Int
    /// The device and inode of the file mapped (zero for a copy made of bytes without them): which
    /// file this is, for removing it only while it is still there (`FileSystem.removeStateFile`).
    let device: UInt64
    let inode: UInt64

    /// Maps the whole of the open regular file `fd` (its pages are read as they are touched); nil
    /// when it is empty or cannot be mapped.
    init?(fd: Int32, status: stat) {
        let length = Int(status.st_size)
        guard length > 0, let map = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED
        else { return nil }
        base = map
        self.length = length
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// A private copy of `bytes` in memory laid out as a mapped file would be (page-aligned), for a
    /// file system without descriptors to map (the tests' in-memory one), standing for the file
    /// `device` and `inode`.
    init?(copying bytes: [UInt8], device: UInt64 = 0, inode: UInt64 = 0) {
        length = bytes.count
        guard length > 0, let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              map != MAP_FAILED
        else { return nil }
        bytes.withUnsafeBytes { map.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        base = map
        self.device = device
        self.inode = inode
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
