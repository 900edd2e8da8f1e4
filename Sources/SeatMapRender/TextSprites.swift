import CCairo
import CStamp
import CTextSprite

/// A text's coverage, worked out once and composited wherever the same
/// shaped text is drawn again at the same fraction of a pixel (a seat map
/// draws each seat number hundreds of times). See `seatmap_text_sprite_make`
/// for when a sprite gives Cairo's bytes and when Cairo must draw.
final class TextSprite {
    let coverage: UnsafeMutablePointer<UInt8>?
    let width: Int32, height: Int32
    /// The top-left corner from the whole device pixel the text's origin lies in.
    let x: Int, y: Int
    /// Each row's covered pixels (see `seatmap_stamp_spans`).
    let spans: [Int32]

    fileprivate init(_ made: seatmap_text_sprite) {
        coverage = made.coverage
        width = made.width
        height = made.height
        x = Int(made.x)
        y = Int(made.y)
        if let coverage = made.coverage, made.width > 0, made.height > 0 {
            spans = [Int32](unsafeUninitializedCapacity: 4 * Int(made.height)) { buffer, count in
                seatmap_stamp_spans(coverage, made.width, made.height, made.width, buffer.baseAddress)
                count = 4 * Int(made.height)
            }
        } else {
            spans = []
        }
    }

    deinit { free(coverage) }
}

/// The sprites of one text engine (one drawing thread), by shaped text and
/// fraction of a pixel. Making a sprite costs about what Cairo's drawing
/// of the text 15 times does (its glyphs drawn one by one, the whole text
/// once more to check them), so a text is drawn by Cairo until it is asked
/// for the `makeAt`-th time: a cinema's seat numbers, each drawn once a
/// row, stay with Cairo; an arena's, each drawn a hundred times, are
/// stamped.
final class TextSprites {
    private enum State {
        case seen(Int)
        case made(TextSprite)
        case refused
    }
    /// The request that makes a text's sprite.
    static let makeAt = 16

    private struct Key: Hashable {
        let layout: UInt
        let fx: Int16, fy: Int16
    }

    private var states: [Key: State] = [:]
    /// At most this many texts are kept; later ones are drawn by Cairo.
    static let limit = 4096
    /// Sides of a sprite's working surface, at most (larger text: Cairo).
    static let maxSide: Int32 = 512

    /// Sprites made, refused and stamped by every engine of the process (tests and the benchmark).
    package static var totals: (made: Int, refused: Int) { counter.withLock { (made, refused) } }
    private static let counter = NSLockBox()
    nonisolated(unsafe) private static var made = 0, refused = 0

    /// The sprite of `layout` (kept alive by its engine while these
    /// sprites are) drawn with its origin `fx`/256, `fy`/256 px into a
    /// device pixel; nil when Cairo draws it this time.
    func sprite(_ layout: OpaquePointer, fx: Int, fy: Int) -> TextSprite? {
        guard (0..<256).contains(fx), (0..<256).contains(fy) else { return nil }
        let key = Key(layout: UInt(bitPattern: Int(bitPattern: layout)), fx: Int16(fx), fy: Int16(fy))
        switch states[key] {
        case .made(let sprite): return sprite
        case .refused: return nil
        case nil:
            if states.count < TextSprites.limit { states[key] = .seen(1) }
            return nil
        case .seen(let n) where n + 1 < TextSprites.makeAt:
            states[key] = .seen(n + 1)
            return nil
        case .seen:
            var made = seatmap_text_sprite()
            if seatmap_text_sprite_make(layout, Int32(fx), Int32(fy), TextSprites.maxSide, &made) == 1 {
                let sprite = TextSprite(made)
                states[key] = .made(sprite)
                TextSprites.counter.withLock { TextSprites.made += 1 }
                return sprite
            }
            states[key] = .refused
            TextSprites.counter.withLock { TextSprites.refused += 1 }
            return nil
        }
    }

    /// Forgets every sprite (the engine's shaped text was dropped).
    func removeAll() { states.removeAll() }
}
