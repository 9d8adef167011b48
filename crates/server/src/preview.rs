//! What a link to a game shows before anyone opens it: the position now,
//! drawn by the server as a 1200×630 SVG in the site's light oak (the
//! `og:image` of the game's pages), and the French words of the same
//! summary (the game's name, its players, where it stands) for the pages'
//! meta tags. Everything a player typed is escaped here, since it ends up
//! inside markup that the server writes.

use std::fmt::Write;

use crate::domain::{EndReason, Ended, GameKind, Opponent, Side, Status};
use crate::error::AppError;
use crate::game::Games;
use crate::game::view::{self, NsoloBoard, State, YoteBoard};

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// How long a preview of a game in progress may be reused: a crawler sees a
/// recent position, and a shared link does not redraw it at every fetch.
pub const CACHE_LIVE: &str = "public, max-age=30";
/// A finished game no longer changes.
pub const CACHE_OVER: &str = "public, max-age=86400";

/// Longest player name drawn in the picture, in characters (the text
/// column is not measured, so a long name is cut with an ellipsis).
const DRAWN_NAME: usize = 18;

const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif";
const INK: &str = "#261c15";
const INK_SOFT: &str = "#5a4636";
const BARK: &str = "#3a2819";
const ACCENT: &str = "#8a3a14";
const CREAM: &str = "#fff8ee";

/// The state of game `id` as the pages read it.
pub async fn snapshot(games: &Games, id: &str) -> Result<State, AppError> {
    games.read(id, view::state).await
}

/// `text` made safe inside an HTML or XML attribute or element.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The cache policy of a game's preview.
pub fn cache_control(s: &State) -> &'static str {
    if s.status == Status::Finished {
        CACHE_OVER
    } else {
        CACHE_LIVE
    }
}

// The French words. Spaces that must not break (before « : », between a
// number and its unit, around « × ») are written as such.

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "Rouges",
        Side::Black => "Noires",
        Side::South => "Sud",
        Side::North => "Nord",
    }
}

/// « aux Rouges de jouer », « à Sud de jouer ».
fn to_side(side: Side) -> &'static str {
    match side {
        Side::Red => "aux Rouges",
        Side::Black => "aux Noires",
        Side::South => "à Sud",
        Side::North => "à Nord",
    }
}

/// « victoire des Rouges », « victoire de Sud ».
fn of_side(side: Side) -> &'static str {
    match side {
        Side::Red => "des Rouges",
        Side::Black => "des Noires",
        Side::South => "de Sud",
        Side::North => "de Nord",
    }
}

/// « une place libre chez les Noires », « au Nord ».
fn at_side(side: Side) -> &'static str {
    match side {
        Side::Red => "chez les Rouges",
        Side::Black => "chez les Noires",
        Side::South => "au Sud",
        Side::North => "au Nord",
    }
}

fn level_name(level: &str) -> &str {
    match level {
        "debutant" => "Débutant",
        "intermediaire" => "Intermédiaire",
        "confirme" => "Confirmé",
        "expert" => "Expert",
        other => other,
    }
}

fn reason_words(reason: EndReason) -> &'static str {
    match reason {
        EndReason::AllCaptured => "toutes les boules prises",
        EndReason::NdarKepp => "Ndar-Kepp",
        EndReason::NoStones => "plus une pierre",
        EndReason::NoMove => "plus un coup jouable",
        EndReason::QuietMoves => "120\u{a0}coups sans prise",
        EndReason::Repetition => "répétition",
        EndReason::Resignation => "abandon",
        EndReason::Agreement => "d’un commun accord",
        EndReason::Timeout => "temps écoulé",
        EndReason::Aborted => "annulée",
    }
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// « 1 coup », « 34 coups ».
fn moves(n: usize) -> String {
    format!("{n}\u{a0}coup{}", if n > 1 { "s" } else { "" })
}

/// « Yoté », « Nsolo 4 × 8 ».
pub fn game_name(s: &State) -> String {
    match s.game {
        GameKind::Yote => "Yoté".to_owned(),
        GameKind::Nsolo => format!("Nsolo 4\u{a0}×\u{a0}{}", s.size),
    }
}

/// How the game is played: « partie en ligne », « contre la machine ».
pub fn mode(s: &State) -> &'static str {
    match s.opponent {
        Opponent::Online => "partie en ligne",
        Opponent::Machine => "contre la machine",
        Opponent::Local => "à deux sur un écran",
    }
}

/// Where the game stands, as a short sentence: « Aux Noires de jouer »,
/// « Victoire des Rouges (abandon) », « En attente de joueurs ».
pub fn standing(s: &State) -> String {
    match s.status {
        Status::Damaged => "Partie endommagée".to_owned(),
        Status::Waiting => "En attente de joueurs".to_owned(),
        Status::Finished => match s.result {
            Some(Ended {
                winner: Some(w),
                reason,
            }) => format!("Victoire {} ({})", of_side(w), reason_words(reason)),
            Some(Ended {
                reason: EndReason::Aborted,
                ..
            }) => "Partie annulée".to_owned(),
            Some(Ended { reason, .. }) => format!("Partie nulle ({})", reason_words(reason)),
            None => "Partie terminée".to_owned(),
        },
        Status::Playing if s.ply == 0 => format!("{} de commencer", upper_first(to_side(s.turn))),
        Status::Playing => format!("{} de jouer", upper_first(to_side(s.turn))),
    }
}

/// Who holds `side`: its members online, « la machine », or nobody named.
fn holder(s: &State, side: Side) -> Option<String> {
    if let Some(teams) = &s.teams {
        let names: Vec<&str> = teams
            .get(&side)
            .map(|t| t.iter().map(|m| m.name.as_str()).collect())
            .unwrap_or_default();
        return (!names.is_empty()).then(|| names.join(", "));
    }
    (s.players.get(&side) == Some(&"machine")).then(|| "la machine".to_owned())
}

/// Who holds `side`, or, online, the places still free there.
fn holder_or_free(s: &State, side: Side) -> Option<String> {
    holder(s, side).or_else(|| match (s.teams.is_some(), free(s, side)) {
        (false, _) | (true, 0) => None,
        (true, 1) => Some("place libre".to_owned()),
        (true, n) => Some(format!("{n}\u{a0}places libres")),
    })
}

/// Places still free on `side` of an online game.
fn free(s: &State, side: Side) -> usize {
    let taken = s
        .teams
        .as_ref()
        .and_then(|t| t.get(&side))
        .map_or(0, Vec::len);
    usize::from(s.team_size.max(1)).saturating_sub(taken)
}

/// One or two French sentences for `og:description`: who plays, where the
/// game stands, and the material.
pub fn description(s: &State) -> String {
    let sides = s.game.sides();
    let mut out = match s.opponent {
        Opponent::Machine => format!("Contre la machine, niveau {}.", level_name(&s.level)),
        Opponent::Local => "Deux joueurs sur le même écran.".to_owned(),
        Opponent::Online if s.status == Status::Waiting => {
            let mut parts: Vec<String> = sides
                .iter()
                .filter_map(|side| holder(s, *side).map(|n| format!("{n} ({})", side_name(*side))))
                .collect();
            for side in sides {
                match free(s, side) {
                    0 => {}
                    1 => parts.push(format!("une place libre {}", at_side(side))),
                    n => parts.push(format!("{n}\u{a0}places libres {}", at_side(side))),
                }
            }
            let who = parts.join(", ");
            format!("Partie en ligne\u{a0}: {who}. Rejoignez la partie\u{202f}!")
        }
        Opponent::Online => {
            let [a, b] = sides.map(|side| {
                let name = holder(s, side).unwrap_or_else(|| "?".to_owned());
                format!("{name} ({})", side_name(side))
            });
            format!("{a} contre {b}.")
        }
    };
    match s.status {
        Status::Playing if s.ply == 0 => {
            let _ = write!(out, " {}.", standing(s));
        }
        Status::Playing => {
            let _ = write!(
                out,
                " {} joué{}, {} de jouer.",
                moves(s.ply),
                if s.ply > 1 { "s" } else { "" },
                to_side(s.turn)
            );
        }
        Status::Finished if s.ply == 0 => {
            let _ = write!(out, " {}, avant le premier coup.", standing(s));
        }
        Status::Finished => {
            let _ = write!(out, " {} après {}.", standing(s), moves(s.ply));
        }
        Status::Damaged => {
            let _ = write!(out, " {}, en lecture seule.", standing(s));
        }
        Status::Waiting => {}
    }
    if let Some(n) = &s.nsolo {
        let stones = |side: Side| n.stones.get(side.as_str()).copied().unwrap_or(0);
        let _ = write!(
            out,
            " Pierres\u{a0}: Sud {}, Nord {}.",
            stones(Side::South),
            stones(Side::North)
        );
    }
    if let Some(y) = &s.yote {
        let taken = |side: Side| y.captured.get(side.as_str()).copied().unwrap_or(0);
        if taken(Side::Red) + taken(Side::Black) > 0 {
            let _ = write!(
                out,
                " Prises\u{a0}: Rouges {}, Noires {}.",
                taken(Side::Red),
                taken(Side::Black)
            );
        }
    }
    out
}

/// What the picture shows, in words (`og:image:alt`, the SVG's label).
pub fn alt(s: &State) -> String {
    format!(
        "Plateau de {} après {}\u{a0}: {}",
        game_name(s),
        moves(s.ply),
        standing(s).to_lowercase()
    )
}

// The picture.

macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// The site's paint, as on the boards of the pages (web/assets/js/svg.js):
/// oak, grain, hollows with an inner shadow, lacquered balls, pebbles.
const DEFS: &str = r##"<defs>
<linearGradient id="mat" x1="0" y1="0" x2=".35" y2="1"><stop offset="0" stop-color="#f7f0e4"/><stop offset="1" stop-color="#e9dcc6"/></linearGradient>
<linearGradient id="oak" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#dcbe92"/><stop offset=".45" stop-color="#d3b083"/><stop offset="1" stop-color="#c49a6c"/></linearGradient>
<linearGradient id="oak-dark" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c9a373"/><stop offset="1" stop-color="#b88d5d"/></linearGradient>
<pattern id="grain" width="240" height="64" patternUnits="userSpaceOnUse"><path d="M0 9c40-6 80 6 120 0s80-6 120 0M0 27c50 5 90-7 130-1s70 6 110-1M0 44c30-4 70 5 120 1s90-6 120-1M0 58c60 3 100-4 140 0s70 3 100-1" fill="none" stroke="#8a5f33" stroke-opacity=".16" stroke-width="1.4"/><path d="M0 18c45-3 85 4 125 0s75-4 115 1M0 36c40 4 90-5 120-1s80 5 120 0" fill="none" stroke="#fff3dc" stroke-opacity=".18" stroke-width="1.1"/></pattern>
<radialGradient id="hollow" cx=".5" cy=".42" r=".62"><stop offset="0" stop-color="#c29b6b"/><stop offset=".75" stop-color="#b58c5c"/><stop offset="1" stop-color="#a27748"/></radialGradient>
<filter id="inset" x="-10%" y="-10%" width="120%" height="120%"><feFlood flood-color="#3b2412" flood-opacity=".55"/><feComposite in2="SourceAlpha" operator="out"/><feGaussianBlur stdDeviation="3.5"/><feOffset dy="3.5" result="s"/><feComposite in="s" in2="SourceAlpha" operator="in"/><feMerge><feMergeNode in="SourceGraphic"/><feMergeNode/></feMerge></filter>
<filter id="lift" x="-5%" y="-5%" width="110%" height="115%"><feDropShadow dx="0" dy="6" stdDeviation="7" flood-color="#3a2412" flood-opacity=".3"/></filter>
<radialGradient id="ball-red" cx=".5" cy=".5" r=".55" fx=".36" fy=".3"><stop offset="0" stop-color="#f6a196"/><stop offset=".18" stop-color="#d8443a"/><stop offset=".65" stop-color="#b3261e"/><stop offset="1" stop-color="#6a130e"/></radialGradient>
<radialGradient id="ball-black" cx=".5" cy=".5" r=".55" fx=".4" fy=".34"><stop offset="0" stop-color="#b0a59b"/><stop offset=".1" stop-color="#4a403a"/><stop offset=".6" stop-color="#1f1a17"/><stop offset="1" stop-color="#050404"/></radialGradient>
<radialGradient id="peb0" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="#dcd5c5"/><stop offset="1" stop-color="#88847a"/></radialGradient>
<radialGradient id="peb1" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="#b9b2a3"/><stop offset="1" stop-color="#736e65"/></radialGradient>
<radialGradient id="peb2" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="#958e82"/><stop offset="1" stop-color="#5c5851"/></radialGradient>
<radialGradient id="peb3" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="#ece2cb"/><stop offset="1" stop-color="#928c7e"/></radialGradient>
<radialGradient id="peb4" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="#a79c88"/><stop offset="1" stop-color="#686154"/></radialGradient>
</defs>"##;

/// `name` cut to what the text column holds.
fn short(name: &str) -> String {
    if name.chars().count() <= DRAWN_NAME {
        name.to_owned()
    } else {
        let cut: String = name.chars().take(DRAWN_NAME - 1).collect();
        format!("{}…", cut.trim_end())
    }
}

/// A ball of `side`: lacquered red or ebony, which also differ by outline.
/// `data` says where it lies, so that the picture can be read back.
fn ball(o: &mut String, side: Side, x: f32, y: f32, r: f32, data: &str) {
    let (fill, stroke, width) = match side {
        Side::Black | Side::North => ("url(#ball-black)", "#b9a894", r / 11.0),
        Side::Red | Side::South => ("url(#ball-red)", "#5c100b", r / 18.0),
    };
    put!(
        o,
        r##"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="#2b1a0c" fill-opacity=".3"/>"##,
        x + r * 0.06,
        y + r * 0.14
    );
    put!(
        o,
        r#"<circle class="ball {}" {data} cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{width:.2}"/>"#,
        side.as_str()
    );
}

/// The site's mark (a red ball on oak) and its name.
fn brand(o: &mut String, x: f32, y: f32) {
    put!(
        o,
        r#"<circle cx="{:.1}" cy="{:.1}" r="21" fill="url(#oak)"/>"#,
        x + 18.0,
        y - 12.0
    );
    put!(
        o,
        r##"<circle cx="{:.1}" cy="{:.1}" r="14" fill="url(#ball-red)" stroke="#5c100b" stroke-width="1"/>"##,
        x + 18.0,
        y - 12.0
    );
    put!(
        o,
        r#"<text x="{:.1}" y="{y:.1}" font-size="32" font-weight="700" fill="{BARK}" letter-spacing=".5">Palabre</text>"#,
        x + 50.0
    );
}

/// A pill with `text` in it, starting at `x` (or ending there when
/// `from_right`). The text is ours, so its width is estimated, not measured.
fn pill(o: &mut String, x: f32, y: f32, text: &str, from_right: bool) {
    let width = 48.0 + 16.2 * text.chars().count() as f32;
    let left = if from_right { x - width } else { x };
    put!(
        o,
        r#"<rect x="{left:.1}" y="{y:.1}" width="{width:.1}" height="54" rx="27" fill="{ACCENT}"/>"#
    );
    put!(
        o,
        r#"<text x="{:.1}" y="{:.1}" font-size="27" font-weight="700" fill="{CREAM}" text-anchor="middle">{}</text>"#,
        left + width / 2.0,
        y + 36.0,
        escape(text)
    );
}

/// One line of the players' list: a swatch, the side, who holds it, and
/// a count underneath.
fn player_line(o: &mut String, s: &State, side: Side, x: f32, y: f32, count: &str) {
    match side {
        Side::Red | Side::Black => ball(o, side, x + 16.0, y - 10.0, 15.0, r#"data-in="key""#),
        Side::South | Side::North => {
            let tint = if side == Side::South {
                "#b3261e"
            } else {
                "#1f1a17"
            };
            put!(
                o,
                r#"<rect x="{x:.1}" y="{:.1}" width="32" height="32" rx="8" fill="url(#oak)" stroke="{tint}" stroke-width="3"/>"#,
                y - 26.0
            );
            pebble(o, x + 16.0, y - 10.0, 0.0, 1.0, side.index());
        }
    }
    let who = holder_or_free(s, side)
        .map(|n| format!(" · {}", escape(&short(&n))))
        .unwrap_or_default();
    put!(
        o,
        r#"<text x="{:.1}" y="{y:.1}" font-size="30" fill="{INK}"><tspan font-weight="700">{}</tspan><tspan fill="{INK_SOFT}">{who}</tspan></text>"#,
        x + 46.0,
        side_name(side)
    );
    put!(
        o,
        r#"<text x="{:.1}" y="{:.1}" font-size="22" fill="{INK_SOFT}">{}</text>"#,
        x + 46.0,
        y + 32.0,
        escape(count)
    );
}

fn pebble(o: &mut String, x: f32, y: f32, rot: f32, k: f32, shade: usize) {
    put!(
        o,
        r##"<ellipse rx="{:.1}" ry="{:.1}" fill="url(#peb{})" stroke="#3c3024" stroke-opacity=".55" stroke-width="{:.2}" transform="translate({x:.1} {y:.1}) rotate({rot:.0})"/>"##,
        11.0 * k,
        9.0 * k,
        shade % 5,
        1.2 * k.max(0.6)
    );
}

/// Under the game's name: who plays whom.
fn subtitle(s: &State) -> String {
    match s.opponent {
        Opponent::Machine => format!("Contre la machine · {}", level_name(&s.level)),
        _ => upper_first(mode(s)),
    }
}

/// Where the text column starts, and the board's area for Yoté.
const LEFT: f32 = 64.0;

fn yote_picture(o: &mut String, s: &State, b: &YoteBoard) {
    let count = |m: &std::collections::BTreeMap<String, u8>, side: Side| {
        m.get(side.as_str()).copied().unwrap_or(0)
    };
    // The text column.
    brand(o, LEFT, 92.0);
    put!(
        o,
        r#"<text x="{LEFT}" y="222" font-size="104" font-weight="800" fill="{INK}" letter-spacing="-1">Yoté</text>"#
    );
    let sub = subtitle(s);
    put!(
        o,
        r#"<text x="{LEFT}" y="274" font-size="32" fill="{INK_SOFT}">{}</text>"#,
        escape(&sub)
    );
    for (i, side) in [Side::Red, Side::Black].into_iter().enumerate() {
        let taken = count(&b.captured, side);
        let line = format!(
            "{} en réserve · {} prise{}",
            count(&b.reserve, side),
            taken,
            if taken > 1 { "s" } else { "" }
        );
        player_line(o, s, side, LEFT, 358.0 + 82.0 * i as f32, &line);
    }
    pill(o, LEFT, 520.0, &standing(s), false);

    // The board: Black's tray above the plank, Red's below, as on the page.
    let (tx, tw, th) = (606.0_f32, 546.0_f32, 74.0_f32);
    let size = 410.0_f32;
    let top = (HEIGHT as f32 - (2.0 * th + 2.0 * 12.0 + size)) / 2.0;
    let px = tx + (tw - size) / 2.0;
    let py = top + th + 12.0;
    tray(
        o,
        Side::Black,
        tx,
        top,
        tw,
        th,
        count(&b.reserve, Side::Black),
        count(&b.captured, Side::Black),
    );
    tray(
        o,
        Side::Red,
        tx,
        py + size + 12.0,
        tw,
        th,
        count(&b.reserve, Side::Red),
        count(&b.captured, Side::Red),
    );
    put!(
        o,
        r#"<rect x="{px:.1}" y="{py:.1}" width="{size}" height="{size}" rx="18" fill="url(#oak)" filter="url(#lift)"/><rect x="{px:.1}" y="{py:.1}" width="{size}" height="{size}" rx="18" fill="url(#grain)"/>"#
    );
    let cell = size / 5.0;
    for rank in (1..=5u8).rev() {
        for (f, file) in ['a', 'b', 'c', 'd', 'e'].into_iter().enumerate() {
            let name = format!("{file}{rank}");
            let x = px + cell * (f as f32 + 0.5);
            let y = py + cell * (5.0 - f32::from(rank) + 0.5);
            put!(
                o,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="url(#hollow)" filter="url(#inset)" stroke="#5c3a1c" stroke-opacity=".35" stroke-width="1.5"/>"##,
                cell * 0.4
            );
            let side = match b.board.get(&name).map(String::as_str) {
                Some("red") => Some(Side::Red),
                Some("black") => Some(Side::Black),
                _ => None,
            };
            if let Some(side) = side {
                ball(o, side, x, y, cell * 0.33, &format!(r#"data-at="{name}""#));
            }
        }
    }
}

/// A side's tray: its reserve in a long trough, and in a shorter one the
/// balls it took, in pairs (a capture always costs two).
#[allow(clippy::too_many_arguments)]
fn tray(o: &mut String, side: Side, x: f32, y: f32, w: f32, h: f32, reserve: u8, taken: u8) {
    put!(
        o,
        r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="16" fill="url(#oak-dark)" filter="url(#lift)"/><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="16" fill="url(#grain)"/>"#
    );
    let (rw, gap) = (w * 0.6, 12.0);
    let trough = |o: &mut String, x: f32, w: f32| {
        put!(
            o,
            r##"<rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" rx="{:.1}" fill="url(#hollow)" filter="url(#inset)" stroke="#5c3a1c" stroke-opacity=".3"/>"##,
            y + 10.0,
            h - 20.0,
            (h - 20.0) / 2.0
        );
    };
    trough(o, x + gap, rw);
    let r = 11.5;
    let step = (rw - 2.0 * r - 16.0) / 11.0;
    for i in 0..reserve.min(12) {
        ball(
            o,
            side,
            x + gap + 8.0 + r + step * f32::from(i),
            y + h / 2.0,
            r,
            r#"data-in="reserve""#,
        );
    }
    let cx = x + 2.0 * gap + rw;
    let cw = w - rw - 3.0 * gap;
    trough(o, cx, cw);
    let r = 9.5;
    let pair = cw / 3.0;
    for i in 0..taken.min(12) {
        let (p, k) = (i / 2, i % 2);
        let bx = cx + pair * (f32::from(p % 3) + 0.5) + (f32::from(k) - 0.5) * (2.0 * r + 1.0);
        let by = y + h / 2.0 + (f32::from(p / 3) - 0.5) * (2.0 * r + 2.0);
        ball(o, side.other(), bx, by, r, r#"data-in="captured""#);
    }
}

/// Pebble places inside a pit of pitch 100 (as on the page): a small
/// cluster first, then a ring.
const SPOTS: [(f32, f32); 12] = [
    (-11.0, -7.0),
    (11.0, -7.0),
    (0.0, 11.0),
    (-24.0, 8.0),
    (24.0, 8.0),
    (0.0, -27.0),
    (-17.0, 25.0),
    (17.0, 25.0),
    (-26.0, -16.0),
    (26.0, -16.0),
    (-12.0, -26.0),
    (12.0, -26.0),
];

fn nsolo_picture(o: &mut String, s: &State, b: &NsoloBoard) {
    let n = usize::from(s.size.max(1));
    // The heading: the name on the left, the players and the standing on
    // the right.
    brand(o, LEFT, 76.0);
    put!(
        o,
        r#"<text x="{LEFT}" y="170" font-size="88" font-weight="800" fill="{INK}" letter-spacing="-1">Nsolo<tspan font-size="52" font-weight="600" fill="{INK_SOFT}" dx="18">4&#160;×&#160;{n}</tspan></text>"#
    );
    let sub = subtitle(s);
    put!(
        o,
        r#"<text x="{LEFT}" y="216" font-size="30" fill="{INK_SOFT}">{}</text>"#,
        escape(&sub)
    );
    let right = WIDTH as f32 - LEFT;
    pill(o, right, 36.0, &standing(s), true);
    for (i, side) in [Side::North, Side::South].into_iter().enumerate() {
        let stones = b.stones.get(side.as_str()).copied().unwrap_or(0);
        let who = holder_or_free(s, side)
            .map(|n| format!("{} · ", escape(&short(&n))))
            .unwrap_or_default();
        let y = 140.0 + 44.0 * i as f32;
        put!(
            o,
            r#"<text x="{right:.1}" y="{y:.1}" font-size="28" fill="{INK}" text-anchor="end"><tspan fill="{INK_SOFT}">{who}</tspan><tspan font-weight="700">{}</tspan><tspan fill="{INK_SOFT}"> · {stones}&#160;pierre{}</tspan></text>"#,
            side_name(side),
            if stones > 1 { "s" } else { "" }
        );
    }

    // The board: North's rows (D, C) above the gap, South's (B, A) below,
    // column 1 on the left, as the page shows it to South.
    let (area_top, area_h, area_w) = (250.0_f32, 350.0_f32, WIDTH as f32 - 2.0 * 40.0);
    let nf = n as f32;
    let pitch = (area_w / (nf + 0.44)).min(area_h / 4.6);
    let pad = 0.22 * pitch;
    let gap = 0.3 * pitch;
    let (bw, bh) = (nf * pitch + 2.0 * pad, 4.0 * pitch + gap + 2.0 * pad);
    let bx = (WIDTH as f32 - bw) / 2.0;
    let by = area_top + (area_h - bh) / 2.0 + 6.0;
    let rx = pad.min(18.0);
    put!(
        o,
        r#"<rect x="{bx:.1}" y="{by:.1}" width="{bw:.1}" height="{bh:.1}" rx="{rx:.1}" fill="url(#oak)" filter="url(#lift)"/><rect x="{bx:.1}" y="{by:.1}" width="{bw:.1}" height="{bh:.1}" rx="{rx:.1}" fill="url(#grain)"/>"#
    );
    // Each side's two rows are tinted, so the territory reads at a glance.
    for (i, (tint, opacity)) in [("#1f1a17", ".08"), ("#b3261e", ".1")]
        .into_iter()
        .enumerate()
    {
        put!(
            o,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{:.1}" fill="{tint}" fill-opacity="{opacity}"/>"#,
            bx + pad * 0.45,
            by + pad - 0.1 * pitch + i as f32 * (2.0 * pitch + gap),
            bw - pad * 0.9,
            2.2 * pitch,
            rx * 0.7
        );
    }
    let k = pitch / 100.0;
    let pebbles = pitch >= 56.0;
    for (i, row) in ["D", "C", "B", "A"].into_iter().enumerate() {
        let counts = b.rows.get(row).map(Vec::as_slice).unwrap_or_default();
        let y = by + pad + pitch * (i as f32 + 0.5) + if i >= 2 { gap } else { 0.0 };
        for (c, count) in counts.iter().copied().enumerate() {
            let x = bx + pad + pitch * (c as f32 + 0.5);
            let name = format!("{row}{}", c + 1);
            put!(
                o,
                r##"<g class="pit" data-pit="{name}" data-count="{count}"><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="url(#hollow)" filter="url(#inset)" stroke="#5c3a1c" stroke-opacity=".35" stroke-width="{:.2}"/>"##,
                pitch * 0.42,
                1.5 * k.max(0.6)
            );
            if pebbles {
                let seed = (c + 1) * 7 + (3 - i) * 3;
                for (j, (dx, dy)) in SPOTS.iter().take(usize::from(count)).enumerate() {
                    let rot = ((seed + j * 37) % 60) as f32 - 30.0;
                    pebble(o, x + dx * k, y + dy * k, rot, k, seed + j);
                }
                if count > 0 {
                    let (w, h) = (if count > 9 { 40.0 } else { 30.0 } * k, 30.0 * k);
                    let (cx, cy) = (x + 30.0 * k, y + 30.0 * k);
                    put!(
                        o,
                        r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="{:.1}" fill="#fffaf0" stroke="#6b4a2b" stroke-width="{:.2}"/><text x="{cx:.1}" y="{:.1}" font-size="{:.1}" font-weight="800" fill="#1f1a17" text-anchor="middle">{count}</text>"##,
                        cx - w / 2.0,
                        cy - h / 2.0,
                        h / 2.0,
                        1.5 * k,
                        cy + 8.0 * k,
                        23.0 * k
                    );
                }
            } else if count > 0 {
                put!(
                    o,
                    r#"<text x="{x:.1}" y="{:.1}" font-size="{:.1}" font-weight="800" fill="{INK}" text-anchor="middle">{count}</text>"#,
                    y + pitch * 0.16,
                    pitch * 0.44
                );
            }
            o.push_str("</g>");
        }
    }
}

/// The picture of the game now: 1200×630, for link previews.
pub fn svg(s: &State) -> String {
    let mut o = String::with_capacity(32 * 1024);
    let label = escape(&alt(s));
    put!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}" font-family="{FONT}"><title>{label}</title>"#
    );
    o.push_str(DEFS);
    put!(
        o,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#mat)"/><rect y="{}" width="{WIDTH}" height="10" fill="{BARK}"/>"#,
        HEIGHT - 10
    );
    if let Some(b) = &s.yote {
        yote_picture(&mut o, s, b);
    } else if let Some(b) = &s.nsolo {
        nsolo_picture(&mut o, s, b);
    }
    o.push_str("</svg>");
    o
}
