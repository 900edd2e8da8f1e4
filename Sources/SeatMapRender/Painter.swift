import Foundation
import SeatMapCore
import SeatMapLayout

/// The one drawing routine: draws a scene's layout items on any canvas in
/// the theme's colours. It computes no positions or sizes: every shape, box
/// and text placement comes from the `Layout`. With a `region`, it draws only
/// what meets that rect (cells are found through the layout's index, not by
/// a scan), which is how viewports and incremental redraws stay cheap and
/// pixel-identical.
struct Painter {
    let scene: Scene
    let canvas: Canvas
    /// Mark colours by fill, worked out once per fill (a contrast needs
    /// six powers; a hall has a handful of fills and thousands of seats).
    let marks = MarkColors()
    var layout: Layout { scene.layout }
    var theme: Theme { scene.theme }

    /// Draws everything that meets `region` (all of it by default). With
    /// `clip`, nothing outside the region is touched; without, shapes that
    /// cross its edge are drawn whole (the caller crops), which keeps every
    /// pixel identical to a full render.
    /// `seatsNear`: only the seats that meet this rect are drawn (a tile
    /// needs only those that reach its own part; see `Renderer.drawInFrame`).
    func draw(region: PixelRect? = nil, clip: Bool = false, seatsNear: PixelRect? = nil) {
        let area = region ?? layout.bounds
        let clipped = clip && region != nil
        if clipped { canvas.pushClip(area) }
        canvas.fill(.rect(area), theme.background)
        if let header = layout.header, let text = layout.headerText, header.intersects(area) {
            canvas.beginStructure("H1")
            drawText(scene.title, text, theme.text, what: "the header")
            canvas.endStructure("H1")
        }
        // The map is one figure (its alternate text is the hall's summary);
        // the legend is text, one paragraph per entry.
        canvas.beginStructure("Figure")
        // A free venue has no screen band (a stage is an area).
        if !layout.isFree && layout.screen.intersects(area) { drawScreen() }
        for dash in layout.centerLine where dash.intersects(area) { canvas.fill(.rect(dash), theme.centerLine) }
        for title in layout.titles { drawText(title.text, title.placement, theme.text, what: "a level title") }
        for a in layout.areas where a.rect.intersects(area) { drawArea(a) }
        for zone in layout.zones { drawZone(zone) }
        for label in layout.rowLabels where label.rect.intersects(area) { drawRowLabel(label) }
        let seatArea = seatsNear.map { $0.intersection(area) } ?? area
        for k in seatArea.isEmpty ? [] : layout.cellIndexes(intersecting: seatArea) {
            let cell = layout.cells[k]
            if cell.isSeat { drawSeat(cell) }
        }
        canvas.endStructure("Figure")
        if let legend = layout.legend, legend.intersects(area) {
            canvas.beginStructure("Sect")
            for item in layout.legendItems where item.rect.intersects(area) {
                canvas.beginStructure("P")
                drawLegendItem(item)
                canvas.endStructure("P")
            }
            canvas.endStructure("Sect")
        }
        if clipped { canvas.popClip() }
    }

    /// `what` names the text in errors ("the header", "row label 3", …).
    func drawText(_ string: String, _ p: TextPlacement, _ color: Color, what: String) {
        canvas.text(string, x: p.x, y: p.y, align: p.align,
                    style: TextStyle(size: p.size, color: color, what: what, box: p.box, minSize: p.minSize, rotation: p.rotation))
    }

    func drawGlyph(_ glyph: Glyph, _ color: Color) {
        for part in glyph.parts {
            switch part {
            case .fill(let path): canvas.fill(path, color)
            case .stroke(let s): canvas.stroke(s.path, color, width: s.width, dash: [])
            case .clip(let r): canvas.pushClip(r)
            case .unclip: canvas.popClip()
            }
        }
    }

    /// The screen: its outline in the centre-line colour under its face.
    func drawScreen() {
        canvas.fill(layout.screenOutline, theme.centerLine)
        canvas.fill(layout.screenFace, theme.screen)
        drawText(scene.screenLabel, layout.screenText, theme.screenText, what: "the screen label")
    }

    func drawRowLabel(_ label: RowLabelBox) {
        canvas.fill(.roundedRect(label.pill, radius: label.pillRadius), theme.rowLabelBackground)
        drawText(label.label, label.text, rowLabelColor(label), what: "a row label")
    }

    /// A row label's text colour: the theme's, unless it reads poorly
    /// (WCAG 4.5 : 1) on its pill over whatever lies under the label (an
    /// area's fill in a free venue); then whichever of the theme's text
    /// colours, black or white reads best there.
    func rowLabelColor(_ label: RowLabelBox) -> Color {
        guard layout.isFree else { return theme.rowLabel }
        var under = theme.background
        if case .area(let a) = HitTester(layout: layout).hit(pixelX: Double(label.pill.x) + Double(label.pill.w) / 2,
                                                               pixelY: Double(label.pill.y) + Double(label.pill.h) / 2),
           let fill = areaFill(a.area) {
            under = fill.over(theme.background)
        }
        let pill = theme.rowLabelBackground.over(under.over(Color(r: 1, g: 1, b: 1)))
        func reads(_ c: Color) -> Double { c.over(pill).contrast(with: pill) }
        let choices = [theme.rowLabel, theme.text, theme.seatText, Color(r: 0, g: 0, b: 0), Color(r: 1, g: 1, b: 1)]
        return choices.first(where: { reads($0) >= 4.5 }) ?? choices.max(by: { reads($0) < reads($1) }) ?? theme.rowLabel
    }

    /// A price tier's fill: the hall's category colour for it, else the theme's.
    func tierColor(_ tier: Int?) -> Color { theme.tierColor(tier, layout.tiers) }

    // MARK: Free venues

    /// An area in its own colours (the theme's where it gives none): a
    /// standing area in its price tier's colour, or the sold colour once
    /// full, with its remaining places.
    func drawArea(_ a: LaidOutArea) {
        let area = a.area
        if canvas.wantsSeatTags { canvas.beginArea(areaTag(a)) }
        let fill = a.isHittable ? areaFill(area) : nil
        if a.isHittable {
            if let fill { canvas.fill(a.path, fill) }
            // The given border; else a stage-like area is outlined as the screen is.
            // (A transparent border: none.)
            let outline = area.border.flatMap(Color.init(hex:)) ?? (area.isStanding || fill == nil ? nil : theme.centerLine)
            if let outline, outline.a > 0 {
                canvas.stroke(a.path, outline, width: max(1, layout.scale), dash: [])
            }
        }
        if let t = a.text {
            let color: Color
            if case .text = area.shape {
                color = area.fill.flatMap(Color.init(hex:)) ?? theme.text
            } else if let given = area.labelColor.flatMap(Color.init(hex:)) {
                color = given
            } else if let fill {
                // Whichever of the theme's two text colours reads better on the fill.
                color = marks.on(fill, theme)
            } else {
                color = theme.text
            }
            drawText(areaText(area), t, color, what: "area \"\(area.id)\"")
        }
        if canvas.wantsSeatTags { canvas.endSeat() }
    }

    /// An area's fill (nil: transparent): its own colour; a standing area's
    /// tier colour, or the sold colour once full; else, for a stage, bar or
    /// table, the theme's screen colour. The map and the minimap both use it.
    func areaFill(_ area: Area) -> Color? {
        if let f = area.fill, CSSColor.isTransparent(f) { return nil }
        if let given = area.fill.flatMap(Color.init(hex:)) { return given }
        if area.isStanding {
            if scene.hidesOccupancy { return theme.neutralFill }
            return area.remaining == 0 ? theme.sold : tierColor(layout.tiers.tier(of: area.price))
        }
        return theme.screen
    }

    /// An area's label; a standing area adds its remaining places.
    func areaText(_ area: Area) -> String {
        guard let cap = area.capacity, !scene.hidesOccupancy else { return area.label }
        let count = "\(area.remaining)/\(cap)"
        return area.label.isEmpty ? count : "\(area.label) \(count)"
    }

    func areaTag(_ a: LaidOutArea) -> SeatTag {
        var classes = ["area", a.area.shape.name]
        if a.isStanding { classes.append(a.area.remaining == 0 && !scene.hidesOccupancy ? "sold" : "standing") }
        let hidden = scene.hidesOccupancy
        let price = hidden ? "" : a.area.price?.plainText ?? ""
        var title = a.area.label
        if a.isStanding, let p = a.area.price {
            let locale = layout.locale
            title = locale.list([areaText(a.area), locale.text("kind.standing"), hidden ? "" : layout.money(p),
                                 hidden ? "" : locale.status(a.area.remaining == 0 ? .sold : .available)])
        }
        // On a ticket nothing but the buyer's seats takes focus.
        return SeatTag(id: a.id, classes: classes, row: 0, column: 0, price: price, title: title,
                       focusable: scene.ticket == nil && a.isStanding && a.area.remaining > 0)
    }

    func drawZone(_ zone: ZoneMark) {
        if let o = zone.outline { canvas.stroke(o.path, theme.outline, width: o.width, dash: []) }
        if let n = zone.name { drawText(n.text, n.placement, theme.text, what: "a zone name") }
    }

    // MARK: Seats

    /// Whether a seat is selected / highlighted (ids are built only when
    /// there is something to look them up in).
    func isSelected(_ cell: LaidOutCell) -> Bool { !scene.selected.isEmpty && scene.selected.contains(cell.id) }
    func isHighlighted(_ cell: LaidOutCell) -> Bool { !scene.highlighted.isEmpty && scene.highlighted.contains(cell.id) }

    func fillColor(_ cell: LaidOutCell) -> Color {
        if isSelected(cell) { return theme.selected }
        if scene.ticket != nil {
            if scene.isTicketed(cell.id) { return theme.selected }
            if scene.hidesOccupancy && cell.isSeat { return theme.neutralFill }
        }
        switch cell.kind {
        case .seat(.available): return tierColor(cell.tier)
        case .seat(.locked): return theme.locked
        case .seat(.sold): return theme.sold
        case .aisle: return theme.background
        }
    }

    func tag(_ cell: LaidOutCell) -> SeatTag {
        let selected = isSelected(cell)
        let yours = scene.isTicketed(cell.id)
        // A ticket without occupancy says nothing of other seats' status,
        // tier or price, and only the buyer's seats take focus.
        let hidden = scene.hidesOccupancy && !yours
        // A standard seat's type goes without saying (it is most seats).
        let type = cell.type == .standard ? [] : [cell.type.rawValue]
        var classes = hidden ? ["seat"] + type : ["seat", cell.kind.name] + type
        if yours { classes.append("yours") }
        if let tier = cell.tier, !hidden { classes.append("tier-\(tier)") }
        if selected { classes.append("selected") }
        if isHighlighted(cell) { classes.append("highlighted") }
        let focusable = scene.ticket == nil ? cell.status == .available : yours
        return SeatTag(id: cell.id.description, classes: classes, row: cell.row, column: cell.column,
                       price: hidden ? "" : cell.price?.plainText ?? "", title: title(cell, selected: selected), focusable: focusable,
                       externalID: cell.externalID)
    }

    /// A seat's words: "Row 3, Seat 5, Wheelchair, ¥45.00, Available" (the
    /// locale's list separator; its type only when not standard).
    func title(_ cell: LaidOutCell, selected: Bool) -> String {
        let locale = layout.locale
        let yours = scene.isTicketed(cell.id)
        let hidden = scene.hidesOccupancy && !yours
        let state = yours ? locale.text("status.yours")
            : selected ? locale.text("status.selected")
            : hidden ? "" : cell.status.map(locale.status) ?? ""
        return locale.list([layout.describe(cell), locale.type(cell.type) ?? "", hidden ? "" : cell.price.map(layout.money) ?? "", state])
    }

    /// The mark a theme draws on an unavailable seat, on the seat's own box
    /// (hatching covers the whole drawn shape).
    func mark(_ mark: Theme.Mark, shape: PixelRect, own: PixelRect) -> Glyph? {
        switch mark {
        case .none: return nil
        case .cross: return .cross(in: own)
        case .hatch: return .hatch(in: shape, own: own)
        }
    }

    func drawSeat(_ cell: LaidOutCell) {
        if canvas.wantsSeatTags { canvas.beginSeat(tag(cell)) }
        let fill = fillColor(cell)
        canvas.fill(layout.shape(of: cell), fill)
        let glyph: Glyph?
        let box = layout.markBox(of: cell)
        let shape = box == cell.seatRect ? cell.rect : box
        let hidden = scene.hidesOccupancy
        if scene.isTicketed(cell.id) {
            // The buyer's seat: its number, or its type's mark.
            glyph = cell.type == .wheelchair ? .wheelchair(in: box) : cell.type == .companion ? .companion(in: box) : nil
        } else if isSelected(cell) {
            glyph = .check(in: box)
        } else if hidden && cell.status != .available {
            glyph = cell.type == .wheelchair ? .wheelchair(in: box) : cell.type == .companion ? .companion(in: box) : nil
        } else if cell.status == .sold, let m = mark(theme.soldMark, shape: shape, own: box) {
            glyph = m
        } else if cell.status == .locked, let m = mark(theme.lockedMark, shape: shape, own: box) {
            glyph = m
        } else if cell.type == .wheelchair {
            glyph = .wheelchair(in: box)
        } else if cell.type == .companion {
            glyph = .companion(in: box)
        } else {
            glyph = nil
        }
        if let glyph {
            drawGlyph(glyph, marks.on(fill, theme))
        } else if let number = layout.numberText(of: cell) {
            drawText(cell.seatLabel, number, marks.on(fill, theme), what: "a seat label")
        }
        if isHighlighted(cell) {
            for (ring, color) in zip(layout.highlightRings(of: cell), [theme.highlight, theme.background]) {
                canvas.stroke(ring.path, color, width: ring.width, dash: [])
            }
        }
        if canvas.wantsSeatTags { canvas.endSeat() }
    }

    // MARK: Legend

    func legendText(_ kind: LegendItem.Kind) -> String {
        switch kind {
        case .tier(let t, _): return layout.tierText(t)
        case .locked: return layout.locale.text("status.locked")
        case .sold: return layout.locale.text("status.sold")
        case .selected: return layout.locale.text("status.selected")
        case .wheelchair(let t), .couple(let t), .companion(let t): return typeText(kind, t)
        case .standing: return layout.locale.text("kind.standing")
        case .section(let id): return layout.zones.first { $0.section == id }?.name?.text ?? ""
        }
    }

    /// A seat type's legend words (the locale's name for the type); with its
    /// tier's price when the type has entries in several tiers
    /// ("Couple seat ¥99.00").
    func typeText(_ kind: LegendItem.Kind, _ tier: Int) -> String {
        guard let type = kind.seatType, let word = layout.locale.type(type) else { return "" }
        guard layout.legendItems.filter({ $0.kind.seatType == type }).count > 1, layout.tiers.prices.indices.contains(tier) else { return word }
        return layout.locale.list([word, layout.money(layout.tiers.prices[tier])])
    }

    func drawLegendItem(_ item: LegendItem) {
        let box = item.markBox
        let fill: Color
        var glyph: Glyph? = nil
        switch item.kind {
        case .tier(let t, _): fill = tierColor(t)
        case .locked:
            fill = theme.locked
            glyph = mark(theme.lockedMark, shape: box, own: box)
        case .sold:
            fill = theme.sold
            glyph = mark(theme.soldMark, shape: box, own: box)
        case .selected:
            fill = theme.selected
            glyph = .check(in: box)
        case .wheelchair(let t):
            fill = tierColor(t)
            glyph = .wheelchair(in: box)
        case .couple(let t): fill = tierColor(t)
        case .companion(let t):
            fill = tierColor(t)
            glyph = .companion(in: box)
        case .standing:
            let first = layout.areas.first(where: \.isStanding)?.area.price
            fill = tierColor(layout.tiers.tier(of: first))
        case .section(let id):
            // The section's outline, as the map draws it round the block.
            let width = layout.zones.first { $0.section == id }?.outline?.width ?? 1
            for shape in item.swatch { canvas.stroke(shape, theme.outline, width: width, dash: []) }
            drawText(legendText(item.kind), item.text, theme.text, what: "the legend")
            return
        }
        for shape in item.swatch { canvas.fill(shape, fill) }
        if let glyph { drawGlyph(glyph, marks.on(fill, theme)) }
        drawText(legendText(item.kind), item.text, theme.text, what: "the legend")
    }

    /// The row labels pinned to the edge of a scrolled view, each on its
    /// pill's shape in the background colour (so it reads as at rest).
    func drawPinnedRowLabels(visible: PixelRect) {
        let moved = layout.pinnedRowLabels(visible: visible).filter { $0.dx != 0 }.map(\.label)
        guard !moved.isEmpty else { return }
        canvas.pushClip(visible)
        for label in moved {
            canvas.fill(.roundedRect(label.pill, radius: label.pillRadius), theme.background)
            drawRowLabel(label)
        }
        canvas.popClip()
    }

    // MARK: E-ticket

    /// The ticket's callout and, when the screen is out of the crop, its
    /// direction band (drawn over the cropped map).
    func drawTicketOverlay(_ t: TicketLayout) {
        if let d = t.direction {
            canvas.fill(.rect(d.band), theme.background)
            canvas.fill(d.arrow, theme.text)
            drawText(d.name, d.text, theme.text, what: "the screen direction")
        }
        let c = t.callout
        canvas.beginStructure("P")
        defer { canvas.endStructure("P") }
        canvas.fill(c.pointer, theme.text)
        canvas.fill(.roundedRect(c.pill, radius: c.radius), theme.text)
        drawText(t.calloutText, c.text, theme.background, what: "the ticket callout")
    }

    // MARK: Minimap

    /// A thumbnail of the whole hall in the viewport's top-right corner with
    /// the visible part outlined, as Maoyan shows while zoomed.
    func drawMinimap(visible: PixelRect) {
        guard let m = layout.minimap(visible: visible) else { return }
        canvas.fill(.roundedRect(m.box, radius: m.cornerRadius), theme.minimapBackground)
        for a in layout.areas where a.isHittable {
            if let fill = areaFill(a.area) { canvas.fill(m.shape(of: a.path), fill) }
        }
        for cell in layout.cells where cell.isSeat {
            canvas.fill(m.shape(of: cell.rect), fillColor(cell))
        }
        canvas.stroke(m.outline.path, theme.highlight, width: m.outline.width, dash: [])
    }
}

/// The mark colour of each fill seen so far (see `Theme.markColor`).
final class MarkColors {
    private var known: [(fill: Color, mark: Color)] = []

    func on(_ fill: Color, _ theme: Theme) -> Color {
        if let k = known.first(where: { $0.fill == fill }) { return k.mark }
        let mark = theme.markColor(on: fill)
        known.append((fill, mark))
        return mark
    }
}
