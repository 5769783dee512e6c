#!/usr/bin/perl
# Rewrites the spec citations of the repository into the checked form of docs/CITATIONS.md:
#   OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]
#   OpenCL C 1.2 §6.12.2 "Math Functions"              (documents without anchors: the heading)
#   IEEE 754-2008 §4.3.1 [external]                      (documents not in the spec folder)
# Deterministic and re-runnable: converted citations are left alone, so it can be run again on
# a merged tree. Citations it cannot map are listed (file:line: text) and left unchanged; the
# hand-made decisions are the %OVERRIDE table below, keyed by the text of the line, not by file
# or line number, so that they survive code moving between files.
#
# Usage: scripts/convert-citations.pl [--spec DIR] [--dry-run] [--verbose] [FILE...]
#   DIR defaults to $CLREF_SPEC_DIR, else ../shared/spec beside the repository.
#   Without FILEs: every file `git ls-files` lists with a source or documentation extension.
#   Exit status: 0 when every citation is converted, 1 when some are listed as unmapped.
use strict;
use warnings;
use utf8;
use FindBin;
use lib $FindBin::Bin;
use SpecIndex;
use Getopt::Long;
use Cwd qw(abs_path);
binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my $root = abs_path("$FindBin::Bin/..");
my $spec = $ENV{CLREF_SPEC_DIR} // "$root/../shared/spec";
my ($dry, $verbose) = (0, 0);
GetOptions('spec=s' => \$spec, 'dry-run' => \$dry, 'verbose' => \$verbose) or die "bad options\n";
-d $spec or die "spec folder $spec not found (--spec DIR or CLREF_SPEC_DIR)\n";

# ---- documents ------------------------------------------------------------------------------------
# Canonical names. 'anchor' documents are AsciiDoc (cited by [[id]]); 'heading' documents have no
# anchors (cited by "Title", the heading that carries the section number in the file).
my %KIND = (
  'OpenCL C 3.0' => 'anchor', 'OpenCL 3.0 API' => 'anchor', 'OpenCL SPIR-V Environment' => 'anchor',
  'OpenCL C 1.2' => 'heading', 'OpenCL 1.2 API' => 'heading',
  'OpenCL SPIR-V Environment 2.2' => 'heading', 'OpenCL Extension Specification 3.0.12' => 'heading',
);
my %HFILE = (
  'OpenCL C 1.2' => 'opencl-1.2-api-spec.md', 'OpenCL 1.2 API' => 'opencl-1.2-api-spec.md',
  'OpenCL SPIR-V Environment 2.2' => 'opencl-spirv-env-2.2.md',
  'OpenCL Extension Specification 3.0.12' => 'opencl-3.0.12-extension-spec.txt',
);
# Other spellings found in the code → canonical name.
my %ALIAS = (
  'OpenCL C' => 'OpenCL C 3.0', 'OpenCL 3.0' => 'OpenCL 3.0 API', 'SPIR-V Env' => 'OpenCL SPIR-V Environment',
  'SPIR-V Environment' => 'OpenCL SPIR-V Environment', 'SPIR-V environment' => 'OpenCL SPIR-V Environment',
  'SPIR-V OpenCL Environment' => 'OpenCL SPIR-V Environment',
  'OpenCL Extension Specification' => 'OpenCL Extension Specification 3.0.12',
);
# Documents not in the spec folder: cited as "NAME §N [external]".
my $EXTERNAL = qr/(?:SPIR-V(?: 1\.\d)?|IEEE 754(?:-2008)?|C99|C11|OpenCL\.std|OpenCL Extended Instruction Set|OpenCL\.DebugInfo\.100)/;

my @names = sort { length($b) <=> length($a) } (keys %KIND, keys %ALIAS);
my $DOCNAME = join '|', map { quotemeta } @names;
$DOCNAME = qr/(?:$DOCNAME)/;

my (%idx, %headings);
sub idx { my $d = shift; $idx{$d} //= SpecIndex::build($spec, $d) }
# heading documents: number → title
sub headings {
  my $d = shift;
  return $headings{$d} if $headings{$d};
  my %h;
  open(my $fh, '<:encoding(UTF-8)', "$spec/$HFILE{$d}") or die "$HFILE{$d}: $!\n";
  while (my $l = <$fh>) {
    $l =~ s/\r?\n$//;
    next if $l =~ /\t\d+$/;                                   # table of contents
    my $t = $l;
    if ($HFILE{$d} =~ /\.md$/) { next unless $t =~ s/^#+\s*//; }
    else { $t =~ s/^Chapter\s+//; }
    $t =~ s/<sup>.*?<\/sup>//g;
    $t =~ s/\s+$//;
    next unless $t =~ /^(\d+(?:\.\d+)*)\.?\s+(\S.*)$/;
    $h{$1} //= $2;
  }
  close $fh;
  return $headings{$d} = \%h;
}

# ---- hand-made decisions --------------------------------------------------------------------------
# Keyed by a substring of the line (as it is before conversion). Each value: a list of
# [old, new] replacements applied to that line before the automatic conversion; new text may
# already be a converted citation. 'NOCITE' marks a line whose § is not a citation.
my @OVERRIDE = (
  # OpenCL 3.0 API: numbers that name another section than the text means
  ['OpenCL 3.0 API §9.2: the address of an extension function', ['§9.2', '§4.5']],
  ['§5.8.6.? sub-groups are not supported', ['§5.8.6.?', '§5.8.6.3']],          # -cl-no-subgroup-ifp
  ['§5.2.5 map_flags', ['§5.2.5', '§5.2.4']],
  ['§5.2.2–§5.2.5', ['§5.2.2–§5.2.5', '§5.2.2–§5.2.4']],
  ['host_ptr itself, as §5.2.5', ['§5.2.5', '§5.2.4']],
  ['§5.3.3–§5.3.6', ['§5.3.3–§5.3.6', '§5.3.4–§5.3.7']],
  ['§5.5.2: overlapping write maps', ['§5.5.2', '§5.5.4']],
  ['§5.5.2: regions of a buffer and its sub-buffers mapped', ['§5.5.2', '§5.5.4']],
  ['unmap and migrate (§5.5.3, §5.5.4)', ['§5.5.4', '§5.5.5']],
  ['§5.5.4 migrate', ['§5.5.4', '§5.5.5']],
  ['SVM commands (§5.6.2)', ['§5.6.2', '§5.6']],
  ['§5.8.6.3 math options', ['§5.8.6.3', '§5.8.6.2']],
  ['§5.8.6.4: the default is the highest 1.x version', ['§5.8.6.4', '§5.8.6.5']],
  ['§5.8.6.5 linker options', ['§5.8.6.5', '§5.8.7']],
  ['§5.8.7: param_value points to an array of n pointers', ['§5.8.7', '§5.8.9']],
  ['OpenCL 3.0 API §5.8.7: a program created from a compiled object', ['§5.8.7', '§5.8.9']],
  ['§5.8.8: the storage of the program', ['§5.8.8', '§5.8.9']],
  ['§5.8.4: a bool specialization constant', ['§5.8.4', '§5.8.3']],
  ['part of CL_KERNEL_LOCAL_MEM_SIZE (§5.9.3)', ['§5.9.3', '§5.9.4']],
  ['§5.13 flush and finish', ['§5.13', '§5.16']],
  ['§5.13, §5.15; see error_table.hpp', ['§5.13', '§5.16']],
  ['§4.4? host timers', ['§4.4?', '§4.2']],
  ["a buffer mapped over its sub-buffer's write map (§5.5.2)", ['§5.5.2', '§5.5.4']],
  ['non-uniform NDRange is the remainder (OpenCL 3.0 API §3.2.2)', ['§3.2.2', '§3.2.1']],
  ['not a multiple of the local size in some dimension (OpenCL 3.0 §3.2.2)', ['§3.2.2', '§3.2.1']],
  # OpenCL C: numbers of OpenCL C 1.x/2.x, or of another document
  ['fusing a*b+c into mad (OpenCL C 3.0 §6.11.1.1)', ['§6.11.1.1', '§6.15.2.1']],   # FP_CONTRACT
  ['Non-uniform work-groups (OpenCL C 3.0 §3.2.2', ['OpenCL C 3.0 §3.2.2', 'OpenCL 3.0 API §3.2.1']],
  ['kernel argument (OpenCL C 3.0 §6.11.1,', ['§6.11.1', '§6.11']],
  ['OpenCL C 3.0 §6.15.6 vloadn', ['§6.15.6', '§6.15.7']],
  ['OpenCL C 3.0 §6.15.6 to_global', ['§6.15.6', '§6.15.10']],
  ['OpenCL C 3.0 §6.1.5', ['§6.1.5', '§6.3.5']],
  ['float3 elements are 16 bytes apart (§6.1.5)', ['§6.1.5', '§6.3.5']],
  ['OpenCL C 3.0 §6.1.1', ['§6.1.1', '§6.3.1']],
  ['(§6.15.14.2.2)', ['§6.15.14.2.2', '§6.15.14.2']],
  ['OpenCL C 3.0 §6.15.2.2 mad', ['§6.15.2.2', '§6.15.2']],
  ['OpenCL C 3.0 §6.3.j: the shift count', ['§6.3.j', '§6.5.10']],
  ['OpenCL C 3.0 §6.5.7: only the log2(N) low bits', ['§6.5.7', '§6.5.10']],
  ['shift counts are reduced modulo the width', ['§6.5.7', '§6.5.10']],
  ['yield -1/0 per element (OpenCL C 3.0 §6.5.8)', ['§6.5.8', '§6.5.4']],
  ['with a NaN is false and != is true (OpenCL C 3.0 §6.5.8)', ['§6.5.8', '§6.5.5']],
  ['OpenCL C 3.0 §6.15.3 / §6.3: division by zero', ['§6.3', '§6.5.1']],
  ['OpenCL C 3.0 §6.8: program-scope variables are zero-initialised', ['§6.8', '§6.7.7']],
  ['(OpenCL C 3.0 §6.8 program scope variables)', ['§6.8', '§6.7.7']],
  ['3.0 §6.8), including pointers to one another', ['§6.8', '§6.7.7']],
  ['§6.15.12 bitselect', ['§6.15.12', '§6.15.6']],
  ['§6.15.12 select(a, b, c)', ['§6.15.12', '§6.15.6']],
  ['integer_functions.cl: each function from its OpenCL C §6.12.3', ['OpenCL C §6.12.3', 'OpenCL C 1.2 §6.12.3']],
  ['OpenCL C §6.12.2 remquo', ['OpenCL C §6.12.2', 'OpenCL C 1.2 §6.12.2']],
  # OpenCL SPIR-V Environment: numbers of the 2.2 environment
  ['kernels: OpenCL SPIR-V Environment §5.2.2)', ['§5.2.2', '§3.1']],
  ['Physical32 or Physical64 (OpenCL SPIR-V Environment §2.3)', ['§2.3', '§4']],     # addressing models
  ['A Physical32 module (OpenCL SPIR-V Environment §2.3:', ['§2.3', '§4']],
  ['(OpenCL SPIR-V Environment §5.1, full profile)', ['§5.1', '§3']],
  ['(OpenCL SPIR-V Environment §7.4: the default rounding mode', ['§7.4', '§6.1']],
  ['// §7.4 and OpenCL C 3.0 §6.4.3.2 "default rounding mode"', ['§7.4', '§6.2']],
  ['(SPIR-V Env / OpenCL C §"Relative', ['SPIR-V Env / OpenCL C §"Relative', 'SPIR-V Env §6.6 / OpenCL C §7.4 "Relative']],
  ['(SPIR-V Env §"Relative Error as', ['§"Relative Error as', '§6.6 "Relative Error as']],
  # SPIR-V core and IEEE 754 sections written without the document
  ['first block (§2.16.1)', ['(§2.16.1)', '(SPIR-V 1.0 §2.16.1)']],
  ['malformed OpLoopMerge instructions (§2.16.2;', ['(§2.16.2;', '(SPIR-V 1.0 §2.16.2;']],
  ['// §3.4 b/c: normal (1024 + T)', ['§3.4', 'IEEE 754-2008 §3.4']],
  ['roundTiesToEven with §7.4/§7.5 overflow', ['§7.4/§7.5', 'IEEE 754-2008 §7.4/§7.5']],
  ['rte → inf (§7.4)', ['(§7.4)', '(IEEE 754-2008 §7.4)']],
  ['// §7.2 0 × inf invalid', ['§7.2', 'IEEE 754-2008 §7.2']],
  ['// §7.2 inf - inf invalid', ['§7.2', 'IEEE 754-2008 §7.2']],
  ['// §7.3 division by zero', ['§7.3', 'IEEE 754-2008 §7.3']],
  ['// §7.2 inf·0', ['§7.2', 'IEEE 754-2008 §7.2']],
  ['sNaN operands give quiet NaNs (§6.2)', ['(§6.2)', '(IEEE 754-2008 §6.2)']],
  ['the sign of an exact zero sum follows §6.3', ['follows §6.3', 'follows IEEE 754-2008 §6.3']],
  # not citations: code and comments about the file § "heading" form
  ['// file § section, table title [anchor]', ['file § section', 'file § section (NOCITE)']],
  ['source.find(" §")', ['source.find(" §"))); }', 'source.find(" §"))); }  // NOCITE']],
);

# ---- conversion -----------------------------------------------------------------------------------
my (@unmapped, @notes, @review, %count);
my %override_used;
my $NUM = qr/(?:\d+(?:\.\d+)*(?:\.\?)?|[A-H](?:\.\d+)*)/;
my $TARGET = qr/(?:\s*\[\[[^\]\s]+\]\]|\s*"[^"\n]+"|\s*\[external\])/;
# what may separate the citations of a list
my $JOINER = qr/^[\s,;:.()\/–-]*(?:[\w{},-]+)?[\s,;:.()\/–-]*(?:(?:and|or|to)[\s,;:()–-]*)?$/;
# line length of .clang-format, and a citation that line wrapping keeps in one piece
my $LIMIT = 120;
my $CITE_TOKEN = qr/\S*§\S*\s+(?:\[\[[^\]\s]+\]\]|"[^"]*"|\[external\])\S*/;

sub default_doc {
  my ($file) = @_;
  return 'OpenCL 3.0 API' if $file =~ m{^(host|icd|layer|tests/(icd|host))/};
  return 'OpenCL C 3.0';
}

# The section that defines a name of the API: an entry point (its reference page), an enum (its
# version note) or a compiler option (its labelled-list entry).
my %defined;
sub definition_section {
  my ($name) = @_;
  unless (%defined) {
    my $x = idx('OpenCL 3.0 API');
    for my $k (0 .. $#{$x->{sections}}) {
      next unless $x->{sections}[$k]{num} =~ /^\d/;   # not the error-code appendix
      my $b = $x->{sections}[$k]{body};
      $defined{$1} //= $k while $b =~ /refpage='(\w+)'/g;
      $defined{$1} //= $k while $b =~ m{version-notes/(CL_\w+)\.asciidoc}g;
      $defined{$1} //= $k while $b =~ /^`(-cl-[\w-]+?)=?` ::/mg;
    }
  }
  return $defined{$name};
}

# The names the OpenCL C specification sets in bold (built-in functions, qualifiers).
my %cbold;
sub c_builtin {
  my ($w) = @_;
  unless (%cbold) {
    my $x = idx('OpenCL C 3.0');
    for my $s (@{$x->{sections}}) { $cbold{$1} = 1 while $s->{body} =~ /\*([a-z_]\w*)\*/g; }
  }
  return $cbold{$w};
}

# Resolves one citation; returns (replacement text or undef, reason).
sub resolve {
  my ($doc, $num, $title, $after) = @_;
  my $kind = $KIND{$doc};
  if ($kind eq 'heading') {
    my $h = headings($doc);
    if (defined $num) {
      return (undef, "no heading numbered $num in $HFILE{$doc}") unless $h->{$num};
      return ("§$num \"$h->{$num}\"", '');
    }
    my @n = grep { lc $h->{$_} eq lc $title } keys %$h;
    @n = grep { index(lc $h->{$_}, lc $title) == 0 } keys %$h unless @n;
    return (undef, "heading \"$title\" not found (or ambiguous) in $HFILE{$doc}") unless @n == 1;
    return ("§$n[0] \"$h->{$n[0]}\"", '');
  }
  my $x = idx($doc);
  my $k;
  if (defined $title) {
    my $norm = sub { my $t = lc shift; $t =~ s/\s+/ /g; $t };
    my @k = grep { $x->{sections}[$_]{num} ne '' && $norm->($x->{sections}[$_]{title}) eq $norm->($title) }
      0 .. $#{$x->{sections}};
    return (undef, "no section titled \"$title\" in $doc") unless @k == 1;
    $k = $k[0];
  } elsif ($num !~ /\?/) {
    $k = $x->{bynum}{$num};
    return (undef, "no section $num in $doc") unless defined $k;
  }
  # The name the comment gives right after the citation, checked against the section's text.
  my ($word) = $after =~ /^[\s:(]*(?:\(\d\.\d\)\s*)?(-cl-[\w-]+|[A-Za-z_]\w*)/;
  if ($doc eq 'OpenCL 3.0 API' && defined $word && $word =~ /^(?:cl[A-Z]\w+|CL_\w+|-cl-[\w-]+)$/ && defined definition_section($word)) {
    my $r = definition_section($word);
    if (!defined $k || !SpecIndex::within($x, $r, $x->{sections}[$k]{num})) {
      push @notes, "renumbered: $doc §" . ($num // "\"$title\"") . " $word → §$x->{sections}[$r]{num}";
      $k = $r;
    }
  }
  return (undef, "section number $num is uncertain") unless defined $k;
  if ($doc eq 'OpenCL C 3.0' && defined $word && $word =~ /^[a-z_]\w*$/ && c_builtin($word) && $after =~ /^\s+\Q$word\E/ && $word !~ /^(?:and|or|a|an|the|as|in|of|to|is)$/) {
    my $text = SpecIndex::text($x, $k);
    return (undef, "$word is not in $doc §$x->{sections}[$k]{num}") unless $text =~ /\*\Q$word\E\*/;
  }
  if (defined $word && $word =~ /^(?:CL_\w+|-cl-[\w-]+|cl[A-Z]\w+)$/) {
    my $text = SpecIndex::text($x, $k);
    return (undef, "$word does not occur in $doc §$x->{sections}[$k]{num}") unless $text =~ /\Q$word\E/;
  }
  my $s = $x->{sections}[$k];
  push @review, sprintf("%-26s %-8s %-40.40s | %.60s", $doc, $s->{num}, $s->{title}, $after) if $verbose;
  return ("§$s->{num} [[$s->{id}]]", '');
}

sub files {
  return @ARGV if @ARGV;
  my @f = split /\n/, `git -C '$root' ls-files`;
  return grep {
    /\.(?:cpp|hpp|h|c|cl|spvasm|md|txt|cmake|sh|pl|pm|py|json)$/ && !m{^(?:docs/CITATIONS\.md|tests/spec/|scripts/(?:convert-citations\.pl|SpecIndex\.pm))}
  } @f;
}

sub is_comment { $_[0] =~ m{^\s*(?://|;|#|\*|/\*)} }

for my $file (files()) {
  my $path = $file =~ m{^/} ? $file : "$root/$file";
  open(my $fh, '<:encoding(UTF-8)', $path) or do { warn "$file: $!\n"; next };
  my @lines = <$fh>;
  close $fh;
  next unless grep { /§/ } @lines;
  my $changed = 0;
  my %changed_lines;
  my $block_doc;          # document of the last citation in the current comment block
  my $prev_tail = '';     # the text of the previous comment line of the block
  my $prev_open = 0;   # the previous comment line ends in a list of citations
  for (my $i = 0; $i < @lines; $i++) {
    my $line = $lines[$i];
    my $comment = is_comment($line);
    unless ($comment && $i > 0 && is_comment($lines[$i - 1])) { undef $block_doc; $prev_tail = ''; $prev_open = 0; }
    if ($line !~ /§/) { $prev_tail = $line if $comment; next; }
    next if $line =~ /NOCITE/;
    for my $o (@OVERRIDE) {
      my ($key, @rep) = @$o;
      next unless index($line, $key) >= 0;
      $override_used{$key} = 1;
      for my $r (@rep) {
        my ($old, $new) = @$r;
        my $p = index($line, $old);
        next if $p < 0;   # already applied (a converted line)
        substr($line, $p, length $old) = $new;
        $count{override}++;
      }
    }
    if ($line =~ /NOCITE/) { if ($line ne $lines[$i]) { $lines[$i] = $line; $changed = 1; } next; }
    my $out = '';
    my $rest = $line;
    my $last_end = -1;
    while ($rest =~ /§/) {
      my $pre = $`;
      my $at = $';
      $out .= $pre;
      my ($doc, $prefix_name, $external);
      (my $prev_text = $prev_tail) =~ s{^\s*(?://+|;+|#+|\*+|/\*+)\s*}{};
      $prev_text =~ s/\s+$//;
      (my $here = $out) =~ s{^\s*(?://+|;+|#+|\*+|/\*+)\s*}{};
      my $context = ($comment && $prev_text ne "" && $out !~ /§/) ? "$prev_text $here" : $out;
      if ($context =~ /($EXTERNAL)\s*$/ && $context !~ /OpenCL SPIR-V Environment\s*$|SPIR-V (?:Env|OpenCL)\S*\s*$/) {
        $external = $1;
      } elsif ($context =~ /($DOCNAME)\s*$/) {
        $prefix_name = $1;
        $doc = $ALIAS{$1} // $1;
      }
      # the file § "heading" form of numerics/accuracy_table.cpp (checked by tests/accuracy)
      if ($context =~ /[\w\/.-]+\.(?:adoc|asciidoc|md|txt)\s*$/ && $at =~ /^\s*\\?"/) { $out .= "§"; $rest = $at; $count{filepath}++; next; }
      # already converted? "§N [[anchor]]", "§N [external]", or "§N "Heading"" for a document
      # without anchors (the target may have been wrapped onto the next comment line)
      my $eff = $doc // (defined $block_doc && $block_doc !~ /^ext:/ ? $block_doc : default_doc($file));
      my $TGT = $KIND{$eff} eq 'heading' && !$external ? qr/(?:\s*\[\[[^\]\s]+\]\]|\s*"[^"\n]+"|\s*\[external\])/
                                                       : qr/(?:\s*\[\[[^\]\s]+\]\]|\s*\[external\])/;
      if ($comment && $at =~ /^\s*$NUM\s*$/ && $i + 1 < @lines
          && $lines[$i + 1] =~ m{^\s*(?://+|;+|#+)\s*$TGT}) {
        $out .= "§$at";
        $rest = '';
        $block_doc = $external ? "ext:$external" : ($doc // $block_doc);
        $last_end = length $out;
        last;
      }
      if ($at =~ /^\s*($NUM)($TGT)/) {
        my $len = length($&);
        $out .= '§' . substr($at, 0, $len);
        $rest = substr($at, $len);
        $last_end = length $out;
        $block_doc = $external ? "ext:$external" : ($doc // $block_doc);
        next;
      }
      my ($num, $title, $len);
      if ($at =~ /^\s?($NUM)/) { $num = $1; $len = length($&); }
      elsif ($at =~ /^\s?"([^"]+)"/) { $title = $1; $len = length($&); }
      else {
        push @unmapped, "$file:" . ($i + 1) . ": § without a number or heading: " . trim($line);
        $out .= '§';
        $rest = $at;
        next;
      }
      my $after = substr($at, $len);
      if ($external) {
        $out .= "§$num [external]";
        $count{external}++;
        $block_doc = "ext:$external";
        $last_end = length $out;
        $rest = $after;
        next;
      }
      my $bare = !defined $doc;
      if ($bare) {
        # a bare § continues a list of the block's document, else is the file's document
        my $gap = $last_end >= 0 ? substr($out, $last_end) : ($prev_open ? $out : undef);
        $gap =~ s{^\s*(?://+|;+|#+)}{} if defined $gap && $last_end < 0;
        if (defined $block_doc && defined $gap && $gap =~ $JOINER) {
          $doc = $block_doc;
        } else {
          $doc = default_doc($file);
        }
        if ($doc =~ /^ext:(.*)/) {
          $out .= "§$num [external]";
          $count{external}++;
          $last_end = length $out;
          $rest = $after;
          next;
        }
      }
      my ($rep, $why) = resolve($doc, $num, $title, $after);
      if (!defined $rep) {
        push @unmapped, "$file:" . ($i + 1) . ": $why: " . trim($line);
        $out .= '§' . substr($at, 0, $len);
        $rest = $after;
        next;
      }
      if ($bare && !(defined $block_doc && $block_doc eq $doc)) {
        # name the document (a bare § takes the document of the block's previous citation)
        $out .= "$doc ";
        $count{named}++;
      } elsif (defined $prefix_name && $prefix_name ne $doc) {
        unless ($out =~ s/\Q$prefix_name\E(\s*)$/$doc$1/) {   # the name ends the previous comment line
          if ($i > 0 && $lines[$i - 1] =~ s/\Q$prefix_name\E(\s*)$/$doc$1/) {
            $changed_lines{$i - 1} = 1;
          } else {
            push @unmapped, "$file:" . ($i + 1) . ": cannot rename $prefix_name to $doc: " . trim($line);
          }
        }
      }
      $out .= $rep;
      $last_end = length $out;
      $count{converted}++;
      $block_doc = $doc;
      $rest = $after;
      $changed = 1;
    }
    $out .= $rest;
    if ($out ne $lines[$i]) { $lines[$i] = $out; $changed = 1; $changed_lines{$i} = 1; }
    $prev_tail = $out if $comment;
    $prev_open = $comment && $last_end >= 0 && substr($out, $last_end) =~ $JOINER;
  }
  reflow(\@lines, \%changed_lines) if %changed_lines;
  if ($changed && !$dry) {
    open(my $oh, '>:encoding(UTF-8)', $path) or die "$path: $!\n";
    print $oh @lines;
    close $oh;
  }
}

sub trim { my $s = shift; $s =~ s/^\s+|\s+$//g; $s }

# ---- line length ------------------------------------------------------------------------------------
# Converted lines longer than the 120 columns of .clang-format are wrapped as clang-format would
# wrap them (so that it has nothing left to do): a comment line at the last space that fits, the
# rest joined to the next line of the same comment paragraph (or on a new line); a trailing comment
# moves to its own lines above the code. A citation ("§N [[anchor]]", "§N \"Heading\"") is not
# split. Code and string literals are left alone.

sub words {
  my ($t) = @_;
  my @w;
  while ($t =~ /\G\s*($CITE_TOKEN|\S+)/g) { push @w, $1; }
  return @w;
}

# Greedy fill: the first line has $p1 before the words, the others $p2.
sub fill {
  my ($p1, $p2, @w) = @_;
  my @out;
  my $cur = $p1;
  my $empty = 1;
  for my $w (@w) {
    if (!$empty && length($cur) + 1 + length($w) > $LIMIT) {
      push @out, $cur;
      $cur = $p2 . $w;
    } else {
      $cur .= ($empty ? '' : ' ') . $w;
    }
    $empty = 0;
  }
  push @out, $cur;
  return @out;
}

sub comment_parts {   # (prefix, text) of a line that is only a comment, else ()
  my ($l) = @_;
  return ($1, $2) if $l =~ m{^(\s*(?://+|;+|#+)\s*)(\S.*?)\s*$};
  return ();
}

sub reflow {
  my ($lines, $changed) = @_;   # array ref of lines (with \n), hash ref of changed line indexes
  for (my $i = 0; $i < @$lines; $i++) {
    next unless $changed->{$i};
    (my $l = $lines->[$i]) =~ s/\n$//;
    next if length($l) <= $LIMIT;
    if (my ($p, $t) = comment_parts($l)) {
      my @w = words($t);
      my $n = $i + 1;
      # continue into the next line of the paragraph: same marker and indentation, not a new item
      if ($n < @$lines) {
        (my $next = $lines->[$n]) =~ s/\n$//;
        my ($np, $nt) = comment_parts($next);
        my ($ind) = $p =~ /^(\s*\S+)/;
        if (defined $np && $np =~ /^\Q$ind\E\s/ && $nt !~ /^(?:[-*•] |-{3,}|\d+[.)] |TODO|NOTE)/ && length($np) >= length($p)) {
          push @w, words($nt);
          my @new = fill($p, $np, @w);
          splice @$lines, $i, 2, map { "$_\n" } @new;
          my %c;
          $c{$_ < $i ? $_ : $_ <= $n ? -1 : $_ + @new - 2} = 1 for keys %$changed;
          %$changed = %c;
          $changed->{$_} = 1 for $i .. $i + $#new;
          next;
        }
      }
      my @new = fill($p, $p =~ s/^(\s*\S+).*/$1 /r, @w);
      splice @$lines, $i, 1, map { "$_\n" } @new;
      my %c;
      $c{$_ <= $i ? $_ : $_ + $#new} = 1 for keys %$changed;
      %$changed = %c;
      next;
    }
    # a trailing // comment after code (not inside a string)
    next unless $l =~ m{^(.*?[;{})])(\s+)(//\s*)(\S.*)$} && ($1 =~ tr/"//) % 2 == 0;
    my ($code, $sp, $mark, $t) = ($1, $2, $3, $4);
    # (clang-format would break the statement to keep a trailing comment beside it: the comment
    # moves to the lines above the code instead)
    my ($indent) = $code =~ /^(\s*)/;
    my @new = (fill("$indent$mark", "$indent$mark", words($t)), $code);
    splice @$lines, $i, 1, map { "$_\n" } @new;
    my %c;
    $c{$_ <= $i ? $_ : $_ + $#new} = 1 for keys %$changed;
    %$changed = %c;
  }
}

print "$_\n" for @notes, @review;
if ($verbose) { print "override not used (its line is gone or already converted): $_->[0]\n" for grep { !$override_used{$_->[0]} } @OVERRIDE }
printf "converted %d (of which %d by override rules, %d named a document), external %d\n",
  $count{converted} // 0, $count{override} // 0, $count{named} // 0, $count{external} // 0;
if (@unmapped) {
  print "unmapped (left unchanged):\n";
  print "  $_\n" for @unmapped;
  exit 1;
}
exit 0;
