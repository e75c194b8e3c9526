//! A small Rust lexer, enough to read a submission's sources the way the compiler will:
//! comments and whitespace dropped, string literals kept whole. Grading uses it to find
//! reach-outs (`include!`, `#[path]`) and to compare sources with the reference.

/// One token of Rust source, as far as grading cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// An identifier or keyword (a raw identifier without its `r#`).
    Ident(String),
    /// A string literal's value (normal, raw, byte or C string; escapes left as written).
    Str(String),
    /// One punctuation character.
    Punct(char),
    /// Any other literal (numbers, characters), as written.
    Literal(String),
    /// A lifetime or label, as written.
    Lifetime(String),
}

/// The tokens of `source`, without comments and whitespace. Unterminated comments or
/// strings end the input: the compiler rejects such a file anyway.
pub fn tokens(source: &str) -> Vec<Token> {
    tokens_by_line(source).into_iter().map(|(t, _)| t).collect()
}

/// The tokens of `source` as [`tokens`] reads them, each with the line it starts on
/// (the first is 1), so that a match can be shown where it is.
pub fn tokens_by_line(source: &str) -> Vec<(Token, u32)> {
    let chars: Vec<char> = source.chars().collect();
    let mut lexer = Lexer { chars, at: 0 };
    let mut out = Vec::new();
    let (mut line, mut counted) = (1u32, 0usize);
    loop {
        lexer.skip_trivia();
        let start = lexer.at;
        let Some(token) = lexer.next_token() else {
            break;
        };
        let breaks = lexer.chars[counted..start].iter().filter(|c| **c == '\n');
        line += u32::try_from(breaks.count()).unwrap_or(u32::MAX);
        counted = start;
        out.push((token, line));
    }
    out
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn next_token(&mut self) -> Option<Token> {
        self.skip_trivia();
        let c = self.peek(0)?;
        if let Some(token) = self.string_literal() {
            return Some(token);
        }
        if c == 'r' && self.peek(1) == Some('#') && self.peek(2).is_some_and(is_ident_start) {
            self.at += 2;
            return Some(Token::Ident(self.take_while(is_ident_continue)));
        }
        if is_ident_start(c) {
            return Some(Token::Ident(self.take_while(is_ident_continue)));
        }
        if c.is_ascii_digit() {
            return Some(Token::Literal(
                self.take_while(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
            ));
        }
        if c == '\'' {
            return Some(self.quote());
        }
        self.at += 1;
        Some(Token::Punct(c))
    }

    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => self.at += 1,
                (Some('/'), Some('/')) => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                }
                (Some('/'), Some('*')) => {
                    // Block comments nest in Rust.
                    let mut depth = 0usize;
                    while let Some(c) = self.peek(0) {
                        if c == '/' && self.peek(1) == Some('*') {
                            depth += 1;
                            self.at += 2;
                        } else if c == '*' && self.peek(1) == Some('/') {
                            depth -= 1;
                            self.at += 2;
                            if depth == 0 {
                                break;
                            }
                        } else {
                            self.at += 1;
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// `"..."`, `b"..."`, `c"..."`, `r#"..."#`, `br"..."`, `cr"..."`.
    fn string_literal(&mut self) -> Option<Token> {
        let mut at = self.at;
        if matches!(self.chars.get(at), Some('b' | 'c')) {
            at += 1;
        }
        let raw = self.chars.get(at) == Some(&'r');
        if raw {
            at += 1;
        }
        let mut hashes = 0;
        while raw && self.chars.get(at) == Some(&'#') {
            hashes += 1;
            at += 1;
        }
        if self.chars.get(at) != Some(&'"') {
            return None;
        }
        at += 1;
        let start = at;
        loop {
            match self.chars.get(at) {
                None => {
                    self.at = at;
                    return Some(Token::Str(self.chars[start..].iter().collect()));
                }
                Some('\\') if !raw => at += 2,
                Some('"') => {
                    let closes = (1..=hashes).all(|i| self.chars.get(at + i) == Some(&'#'));
                    if closes {
                        let value = self.chars[start..at].iter().collect();
                        self.at = at + 1 + hashes;
                        return Some(Token::Str(value));
                    }
                    at += 1;
                }
                Some(_) => at += 1,
            }
        }
    }

    /// A character literal (`'a'`, `'\n'`) or a lifetime (`'a`).
    fn quote(&mut self) -> Token {
        let start = self.at;
        let is_char = matches!(
            (self.peek(1), self.peek(2)),
            (Some('\\'), _) | (Some(_), Some('\''))
        );
        if is_char {
            self.at += 1;
            while let Some(c) = self.peek(0) {
                self.at += 1;
                if c == '\\' {
                    self.at += 1;
                } else if c == '\'' {
                    break;
                }
            }
            return Token::Literal(self.chars[start..self.at].iter().collect());
        }
        self.at += 1;
        let name = self.take_while(is_ident_continue);
        Token::Lifetime(format!("'{name}"))
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let start = self.at;
        while self.peek(0).is_some_and(&keep) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_whitespace_do_not_count_and_strings_stay_whole() {
        let a = tokens("fn f() { /* a /* nested */ comment */ \"x // y\" } // end");
        let b = tokens("fn f(){\"x // y\"}");
        assert_eq!(a, b);
        assert!(a.contains(&Token::Str("x // y".to_owned())));
    }

    #[test]
    fn raw_strings_lifetimes_and_chars_are_read_as_the_compiler_reads_them() {
        let t = tokens(r####"r#"a "quoted" b"# 'a 'b' '\'' r#type"####);
        assert_eq!(
            t,
            [
                Token::Str("a \"quoted\" b".to_owned()),
                Token::Lifetime("'a".to_owned()),
                Token::Literal("'b'".to_owned()),
                Token::Literal("'\\''".to_owned()),
                Token::Ident("type".to_owned()),
            ]
        );
    }

    #[test]
    fn each_token_carries_the_line_it_starts_on() {
        let lines: Vec<u32> = tokens_by_line("fn f() {\n  /* a\n b */ \"x\ny\" }\n\nz")
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        assert_eq!(lines, [1, 1, 1, 1, 1, 3, 4, 6]);
    }
}
