//! The input languages a random program is checked in: the same tree ([`super::ast`]),
//! printed as HORef (BMC-2's syntax) or as OCaml ([`super::ocaml`]), loaded by the front end
//! its file name selects; or a Boogie program of its own generator ([`super::boogie`]),
//! checked through the IR ([`super::ir_oracle`]).

use super::ast::Program;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    /// HORef, BMC-2's syntax (`.horef`).
    #[default]
    Horef,
    /// OCaml (`.ml`), through horef-si's OCaml front end.
    Ocaml,
    /// Boogie (`.bpl`): programs of their own generator, through the Boogie front end.
    Boogie,
}

impl Language {
    /// The text of a HORef tree in this language (Boogie programs have a generator of
    /// their own, [`super::boogie::generate`]; a tree is printed as HORef for them).
    pub fn render(self, program: &Program) -> String {
        match self {
            Language::Horef | Language::Boogie => program.text(),
            Language::Ocaml => super::ocaml::text(program),
        }
    }

    /// The text of the program of `seed`, as the campaign checks it.
    pub fn program_of(self, seed: u64) -> String {
        match self {
            Language::Boogie => super::boogie::generate(seed),
            _ => self.render(&super::random::generate(seed)),
        }
    }

    /// The file name the text is loaded as (its extension selects the front end).
    pub fn file_name(self) -> &'static str {
        match self {
            Language::Horef => "fuzz.horef",
            Language::Ocaml => "fuzz.ml",
            Language::Boogie => "fuzz.bpl",
        }
    }

    /// The extension of written findings.
    pub fn extension(self) -> &'static str {
        match self {
            Language::Horef => "horef",
            Language::Ocaml => "ml",
            Language::Boogie => "bpl",
        }
    }
}
