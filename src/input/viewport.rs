//! The viewport's size, as the page reports it (an observation's and a frame walk's).
//!
//! Owns: its wire shape. Must never: hold a position or a scale.

use super::json::{reader, Parser};

#[derive(Debug, Clone, Default)]
pub struct Viewport {
    pub width: f64,
    pub height: f64,
}

reader!(pub(super) fn read_viewport -> Viewport {
    "width" => width: Parser::f64,
    "height" => height: Parser::f64,
});
