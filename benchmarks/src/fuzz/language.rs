//! The input languages a random program is checked in: the same tree ([`super::ast`]),
//! printed as HORef (BMC-2's syntax) or as OCaml ([`super::ocaml`]), loaded by the front end
//! its file name selects.

use super::ast::Program;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    /// HORef, BMC-2's syntax (`.horef`).
    #[default]
    Horef,
    /// OCaml (`.ml`), through horef-si's OCaml front end.
    Ocaml,
}

impl Language {
    /// The program's text in this language.
    pub fn render(self, program: &Program) -> String {
        match self {
            Language::Horef => program.text(),
            Language::Ocaml => super::ocaml::text(program),
        }
    }

    /// The file name the text is loaded as (its extension selects the front end).
    pub fn file_name(self) -> &'static str {
        match self {
            Language::Horef => "fuzz.horef",
            Language::Ocaml => "fuzz.ml",
        }
    }

    /// The extension of written findings.
    pub fn extension(self) -> &'static str {
        match self {
            Language::Horef => "horef",
            Language::Ocaml => "ml",
        }
    }
}
