import CCairo
import CFontAnswers
import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
@testable import SeatMapRender
import SeatMapTestSupport

/// Fontconfig's matches and sorts, worked out once a process: a second
/// thread's font map (a batch's other worker, a large image's other drawing
/// thread) gets the first's answers instead of asking fontconfig again, and
/// every answer is fontconfig's own.
@Suite("Font answers", .serialized)
struct FontAnswersTests {
    /// Loads the light theme's font at `size` in a font map of a thread of
    /// its own (Pango's default map is per thread), and every font of its
    /// fontset, so that both the match and the sort are asked for.
    static func loadOnNewThread(size: Double) throws {
        let theme = try Theme.builtIn("light"), locale = try SeatMapLocale.named("en")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)? = nil
        let thread = Thread {
            defer { done.signal() }
            do {
                let text = try PangoText(theme, locale: locale)
                guard let map = pango_context_get_font_map(text.context), let d = pango_font_description_new() else { return }
                defer { pango_font_description_free(d) }
                pango_font_description_set_family(d, theme.fontFamily)
                pango_font_description_set_absolute_size(d, size * PangoText.unit)
                guard let fontset = pango_font_map_load_fontset(map, text.context, d, pango_context_get_language(text.context)) else { return }
                defer { g_object_unref(UnsafeMutableRawPointer(fontset)) }
                // Every font of the fontset: its fallbacks need the sort.
                pango_fontset_foreach(fontset, { _, _, _ in 0 }, nil)
            } catch {
                failure = error
            }
        }
        thread.start()
        done.wait()
        if let failure { throw failure }
    }

    /// The kept answers at a size and their reuses, once they reach
    /// `kept` and `hits` (Pango's match thread may still be starting when
    /// the fontset's fonts are in), or as they are after 10 s.
    static func counts(size: Double, reaching kept: Int32, _ hits: Int) -> (kept: Int32, hits: Int) {
        var n: Int32 = 0, h = 0
        let deadline = Date().addingTimeInterval(10)
        repeat {
            seatmap_font_answers_for_size(size, &n, &h)
            if n == kept && h == hits { break }
            usleep(2_000)
        } while Date() < deadline
        return (n, h)
    }

    @Test("a second thread's font map asks fontconfig nothing the first's already asked: its match and its sort are the first's")
    func secondMapReuses() throws {
        // A size no other test draws, so the counts are this test's alone
        // (a whole number of Pango units, as Pango hands it to fontconfig).
        let size = 13697 / PangoText.unit
        try Self.loadOnNewThread(size: size)
        let first = Self.counts(size: size, reaching: 2, 0)
        #expect(first.kept == 2 && first.hits == 0, "the first map: one match and one sort worked out (\(first))")
        try Self.loadOnNewThread(size: size)
        let second = Self.counts(size: size, reaching: 2, 2)
        #expect(second.kept == 2 && second.hits == 2, "the second map: the same two answers reused (\(second))")
    }

    /// A pattern for `families` (default: the light theme's) at `size` in
    /// `language`, substituted as Pango's are; the first family bound
    /// weakly when asked.
    static func question(size: Double, language: String, families: [String]? = nil, weakFirst: Bool = false) throws -> OpaquePointer {
        let theme = try Theme.builtIn("light")
        let config = try #require(FcConfigGetCurrent())
        let pattern = try #require(FcPatternCreate())
        for (i, family) in (families ?? [theme.fontFamily] + theme.fontFallbacks).enumerated() {
            if i == 0 && weakFirst {
                var value = FcValue()
                value.type = FcTypeString
                _ = family.withCString { name in
                    name.withMemoryRebound(to: FcChar8.self, capacity: 1) { value.u.s = $0; return FcPatternAddWeak(pattern, FC_FAMILY, value, FcTrue) }
                }
            } else {
                _ = FcPatternAddString(pattern, FC_FAMILY, family)
            }
        }
        _ = FcPatternAddDouble(pattern, FC_PIXEL_SIZE, size)
        if let lang = FcLangSetCreate() {
            _ = FcLangSetAdd(lang, language)
            _ = FcPatternAddLangSet(pattern, FC_LANG, lang)
            FcLangSetDestroy(lang)
        }
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    /// Fontconfig's configuration and its system fonts, as one font set
    /// to choose among.
    static func systemFonts() throws -> (OpaquePointer, [UnsafeMutablePointer<FcFontSet>?]) {
        #expect(FcInit() != 0)
        let config = try #require(FcConfigGetCurrent())
        let system: UnsafeMutablePointer<FcFontSet> = try #require(FcConfigGetFonts(config, FcSetSystem))
        return (config, [system])
    }

    @Test("questions that differ only in language, in trim or in a family's binding are kept apart, each with fontconfig's own answer")
    func keptApart() throws {
        var (config, sets) = try Self.systemFonts()
        let size = 17.3711  // no other test's
        let en = try Self.question(size: size, language: "en"), zh = try Self.question(size: size, language: "zh-cn", families: ["sans-serif"])
        let enAny = try Self.question(size: size, language: "en", families: ["sans-serif"])
        let weak = try Self.question(size: size, language: "en", weakFirst: true)
        defer { for p in [en, zh, enAny, weak] { FcPatternDestroy(p) } }
        #expect(FcPatternEqual(en, weak) != 0, "fontconfig's own equality does not tell the bindings apart")
        let questions: [(name: String, pattern: OpaquePointer, trim: FcBool)] =
            [("en", en, FcTrue), ("en untrimmed", en, FcFalse), ("sans-serif, en", enAny, FcTrue), ("sans-serif, zh-cn", zh, FcTrue),
             ("en, first family weak", weak, FcTrue)]
        func fonts(_ s: UnsafeMutablePointer<FcFontSet>) -> [OpaquePointer?] { (0..<Int(s.pointee.nfont)).map { s.pointee.fonts[$0] } }
        var lists: [[OpaquePointer?]] = []
        for round in 0..<2 {
            for q in questions {
                var result = FcResultNoMatch
                let kept = try #require(FcFontSetSort(config, &sets, 1, q.pattern, q.trim, nil, &result))
                defer { FcFontSetDestroy(kept) }
                let own = try #require(seatmap_font_answers_sort_uncached(config, &sets, 1, q.pattern, q.trim, nil, &result))
                defer { FcFontSetDestroy(own) }
                #expect(fonts(kept) == fonts(own), "\(q.name), round \(round): fontconfig's own sort")
                if round == 0 { lists.append(fonts(kept)) }
            }
        }
        #expect(lists[0] != lists[1] && lists[2] != lists[3], "trim and language change the sort, so keeping them apart is tested")
        let counts = Self.counts(size: size, reaching: 5, 5)
        #expect(counts.kept == 5 && counts.hits == 5, "five questions kept, each reused once (\(counts))")
    }

    @Test("a kept answer is fontconfig's own: the same fonts in the same order, the same match, for Latin and Chinese at several sizes",
          arguments: ["en", "zh-cn"])
    func sameAsFontconfig(language: String) throws {
        var (config, sets) = try Self.systemFonts()
        // Sizes no other test asks for, one set per language.
        let offset = language == "en" ? 0.0 : 0.0004
        for size in [11.8713 + offset, 24.0713 + offset] {
            let pattern = try Self.question(size: size, language: language)
            defer { FcPatternDestroy(pattern) }
            var result = FcResultNoMatch
            let own = try #require(seatmap_font_answers_sort_uncached(config, &sets, 1, pattern, FcTrue, nil, &result))
            defer { FcFontSetDestroy(own) }
            let ownMatch = try #require(seatmap_font_answers_match_uncached(config, &sets, 1, pattern, &result))
            defer { FcPatternDestroy(ownMatch) }
            for round in 0..<2 {  // worked out, then kept
                let sorted = try #require(FcFontSetSort(config, &sets, 1, pattern, FcTrue, nil, &result))
                defer { FcFontSetDestroy(sorted) }
                let fonts = { (s: UnsafeMutablePointer<FcFontSet>) in (0..<Int(s.pointee.nfont)).map { s.pointee.fonts[$0] } }
                #expect(sorted.pointee.nfont > 1 && fonts(sorted) == fonts(own), "\(language) \(size) round \(round): the sort")
                let match = try #require(FcFontSetMatch(config, &sets, 1, pattern, &result))
                defer { FcPatternDestroy(match) }
                #expect(FcPatternEqual(match, ownMatch) != 0, "\(language) \(size) round \(round): the match")
            }
            var kept: Int32 = 0, hits = 0
            seatmap_font_answers_for_size(size, &kept, &hits)
            #expect(kept == 2 && hits == 2, "\(language) \(size): worked out once, reused once (kept \(kept), reused \(hits))")
        }
    }

    @Test("past its capacity the oldest answers are dropped: a new question is still kept, and an old one asked again is worked out again, equal to fontconfig's")
    func oldestDropped() throws {
        var (config, sets) = try Self.systemFonts()
        // Sizes no other test asks for, one question each.
        func ask(_ i: Int) throws -> OpaquePointer {
            let pattern = try Self.question(size: 700 + Double(i) / 1024, language: "en", families: ["sans-serif"])
            defer { FcPatternDestroy(pattern) }
            var result = FcResultNoMatch
            let match = try #require(FcFontSetMatch(config, &sets, 1, pattern, &result))
            if i % 256 == 0, let own = seatmap_font_answers_match_uncached(config, &sets, 1, pattern, &result) {
                #expect(FcPatternEqual(match, own) != 0, "question \(i): fontconfig's own match")
                FcPatternDestroy(own)
            }
            return match
        }
        func kept(_ i: Int) -> Int32 {
            var n: Int32 = 0, hits = 0
            seatmap_font_answers_for_size(700 + Double(i) / 1024, &n, &hits)
            return n
        }
        let count = Int(seatmap_font_answers_capacity()) + 10
        for i in 0..<count { FcPatternDestroy(try ask(i)) }
        #expect(kept(0) == 0 && kept(9) == 0, "the first questions were dropped")
        #expect(kept(count - 1) == 1, "the newest is kept")
        FcPatternDestroy(try ask(0))
        #expect(kept(0) == 1, "an old question asked again is kept again")
    }
}

