import CCairo
import Foundation

/// Image memory of SeatMap's own, through the kernel's and Cairo's public
/// calls: pixels on 2 MB boundaries advised for 2 MB pages (Linux
/// `MADV_HUGEPAGE`: a 7-megapixel render then takes a handful of page
/// faults instead of thousands), and surfaces whose memory is cleared
/// before Cairo first reads it. The pixels are the same either way.
enum ImageMemory {
    static let huge = 2 << 20
    /// Linux's madvise advice numbers (stable kernel ABI).
    private static let adviseHugePages: Int32 = 14, advisePopulateWrite: Int32 = 23

    /// Where a mapping starts and how long it is, kept in the page before
    /// an image's pixels (so the surface's destroy callback can unmap it).
    private struct Mapping {
        var start: UnsafeMutableRawPointer
        var length: Int
    }

    /// The user-data key of surfaces on such memory (its address is the key).
    nonisolated(unsafe) private static let hugeKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
    nonisolated(unsafe) private static let clearedKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    /// `front` bytes (whole pages), then `bytes` rounded up to whole 2 MB
    /// pages from a 2 MB boundary, advised for huge pages. The 2 MB pages'
    /// start and the whole mapping (from the front); nil when it cannot be had.
    private static func map(front: Int, bytes: Int) -> (body: UnsafeMutableRawPointer, mapping: Mapping)? {
        guard bytes > 0, bytes <= Int.max / 4, front >= 0, front <= huge else { return nil }
        let body = (bytes + huge - 1) / huge * huge
        let asked = front + body + huge
        guard let base = mmap(nil, asked, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else { return nil }
        let aligned = (Int(bitPattern: base) + front + huge - 1) & ~(huge - 1)
        let bodyStart = base + (aligned - Int(bitPattern: base)), first = bodyStart - front, end = bodyStart + body
        // What lies before the front and after the body goes back.
        if first > base { munmap(base, first - base) }
        if base + asked > end { munmap(end, base + asked - end) }
        _ = madvise(bodyStart, body, adviseHugePages)
        return (bodyStart, Mapping(start: first, length: front + body))
    }

    /// An ARGB32 image surface on 2 MB pages of its own; nil under 2 MB or
    /// when the memory cannot be had (the caller makes Cairo's own).
    static func hugeSurface(width: Int32, height: Int32) -> OpaquePointer? {
        guard width > 0, height > 0 else { return nil }
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width)
        let page = sysconf(Int32(_SC_PAGESIZE))
        guard stride > 0, page >= MemoryLayout<Mapping>.size, page <= huge else { return nil }
        let bytes = Int(stride) * Int(height)
        guard bytes >= huge, let (pixels, mapping) = map(front: page, bytes: bytes) else { return nil }
        (pixels - MemoryLayout<Mapping>.size).storeBytes(of: mapping, as: Mapping.self)
        guard let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, width, height, stride) else {
            munmap(mapping.start, mapping.length)
            return nil
        }
        let release: cairo_destroy_func_t = { pixels in
            guard let pixels else { return }
            let m = (pixels - MemoryLayout<Mapping>.size).load(as: Mapping.self)
            munmap(m.start, m.length)
        }
        if cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS || cairo_surface_set_user_data(surface, hugeKey, pixels, release) != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(surface)
            munmap(mapping.start, mapping.length)
            return nil
        }
        return surface
    }

    /// The pixels of such a surface and the whole 2 MB pages they lie on; nil for any other surface.
    static func hugePixels(_ surface: OpaquePointer) -> (pixels: UnsafeMutableRawPointer, length: Int)? {
        guard let pixels = cairo_surface_get_user_data(surface, hugeKey) else { return nil }
        let m = (pixels - MemoryLayout<Mapping>.size).load(as: Mapping.self)
        return (pixels, m.start + m.length - pixels)
    }

    /// Has the kernel back those pages now, zeroed, as their first writes
    /// would (Linux `MADV_POPULATE_WRITE`), the last page first (a drawing
    /// from the top meets these halfway); false when the kernel does not.
    @discardableResult
    static func populate(_ pixels: UnsafeMutableRawPointer, length: Int) -> Bool {
        guard Int(bitPattern: pixels) % huge == 0, length % huge == 0 else { return false }
        var page = pixels + length
        while page > pixels {
            page -= huge
            if madvise(page, huge, advisePopulateWrite) != 0 { return false }
        }
        return true
    }

    /// `bytes` of zeroed memory of its own, in whole 2 MB pages from a
    /// 2 MB boundary advised for huge pages, and what `free` must be given.
    static func allocate(_ bytes: Int) -> (memory: UnsafeMutableRawPointer, mapped: Int)? {
        map(front: 0, bytes: bytes).map { ($0.body, $0.mapping.length) }
    }

    static func free(_ memory: UnsafeMutableRawPointer?, mapped: Int) {
        if let memory { munmap(memory, mapped) }
    }

    /// An image surface whose pixels are written (cleared) before Cairo
    /// first reads them. Cairo's own takes calloc's memory, which leaves
    /// fresh pages untouched: Cairo's first read of one (a fill blending
    /// into a mask) maps the kernel's shared zero page, and its first write
    /// then copies it, a second page fault, which while another thread runs
    /// interrupts that thread's processor to drop the old mapping. Cairo's
    /// own surface when the memory cannot be had.
    static func clearedSurface(_ format: cairo_format_t, width: Int32, height: Int32) -> OpaquePointer? {
        let stride = cairo_format_stride_for_width(format, width)
        // Past Cairo's side limit Cairo refuses the size itself (an error surface).
        guard width > 0, height > 0, width <= 32767, height <= 32767, stride > 0,
              let pixels = malloc(Int(stride) * Int(height)) else { return cairo_image_surface_create(format, width, height) }
        // explicit_bzero: a zeroing the optimiser cannot merge with malloc into calloc.
        explicit_bzero(pixels, Int(stride) * Int(height))
        guard let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), format, width, height, stride) else {
            Foundation.free(pixels)
            return cairo_image_surface_create(format, width, height)
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_surface_set_user_data(surface, clearedKey, pixels, { Foundation.free($0) }) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            Foundation.free(pixels)
            return cairo_image_surface_create(format, width, height)
        }
        return surface
    }
}
