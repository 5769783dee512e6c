# SpecIndex: rendered section numbers and anchors of the AsciiDoc specifications in the spec
# folder (CLREF_SPEC_DIR), computed from the sources the way Asciidoctor numbers them.
# Used by scripts/convert-citations.pl; tests/spec/citations_test.cpp has the same rules in C++.
# See docs/CITATIONS.md.
package SpecIndex;
use strict;
use warnings;
use utf8;

# The main documents are not in the spec folder; their include order, :leveloffset:,
# :sectnumoffset: and :numbered!: settings are those of OpenCL_API.txt, OpenCL_C.txt and
# OpenCL_Env.txt in KhronosGroup/OpenCL-Docs (main branch, 2026). Each entry: [file, leveloffset,
# numbered]. ('numbered' off: the appendices, which are lettered instead.)
our %DOCS = (
  'OpenCL C 3.0' => {
    dir => '.', sectnumoffset => 5,
    # one flattened file: its own :leveloffset: and :numbered!: lines are honoured
    files => [['opencl-c-spec.adoc', 0, 1]],
  },
  'OpenCL 3.0 API' => {
    dir => 'opencl-3.0-api-latest', sectnumoffset => 0,
    files => [
      (map { [$_, 1, 1] } qw(introduction glossary opencl_architecture opencl_platform_layer
                             opencl_runtime_layer opencl_assoc_spec embedded_profile)),
      (map { [$_, 1, 0] } qw(appendix_a appendix_b appendix_c appendix_d appendix_e appendix_f
                             appendix_g appendix_h appendix_extensions acknowledgements)),
    ],
  },
  'OpenCL SPIR-V Environment' => {
    dir => 'opencl-spirv-env-latest', sectnumoffset => 0,
    files => [
      (map { [$_, 0, 1] } qw(introduction common_properties required_capabilities validation_rules
                             extensions numerical_compliance image_addressing_and_filtering
                             references)),
      ['appendix_a', 1, 0],
    ],
  },
);

# Asciidoctor's generated section id (idprefix "_", idseparator "_") for a title.
sub auto_id {
  my ($t) = @_;
  $t =~ s/\{[A-Za-z0-9_-]+\}//g;                    # attribute references (unknown here)
  $t =~ s/<<[^,>]*,([^>]*)>>/$1/g;                   # xrefs with text
  $t =~ s/(?<![\w])_(?=\S)|(?<=\S)_(?![\w])//g;      # constrained emphasis marks
  $t =~ s/[*`#+]//g;                                 # strong, monospace, mark, passthrough
  $t = lc $t;
  $t =~ s/[^\w \-.]//g;
  $t =~ s/[ .\-]+/_/g;
  $t =~ s/_$//;
  return "_$t";
}

# index($specdir, $docname) → { sections => [ {num, level, title, id, explicit, file, line, body} ],
#                               anchors => { id => section-index } }
sub build {
  my ($specdir, $name) = @_;
  my $doc = $DOCS{$name} or die "unknown document $name\n";
  my (@sections, %anchors, @count);
  my $numbered = 1;
  my $appendix = 0;
  for my $f (@{$doc->{files}}) {
    my ($file, $leveloffset, $filenum) = @$f;
    $file .= '.asciidoc' unless $file =~ /\./;
    my $path = "$specdir/$doc->{dir}/$file";
    open(my $fh, '<:encoding(UTF-8)', $path) or die "$path: $!\n";
    my @lines = <$fh>;
    close $fh;
    $numbered = $filenum if @{$doc->{files}} > 1;
    my ($delim, @pending, $is_appendix);
    my $cur = @sections ? $#sections : -1;
    for (my $i = 0; $i < @lines; $i++) {
      my $l = $lines[$i];
      $l =~ s/\r?\n$//;
      my $boundary = $i == 0 || $lines[$i - 1] =~ m{^\s*$|^\[.*\]\s*$|^:[\w!-]+:|^//|^include::|^ifn?def::|^endif::};
      if (defined $delim) {                         # inside a verbatim or comment block
        undef $delim if $l eq $delim;
        $sections[$cur]{body} .= "$l\n" if $cur >= 0;
        next;
      }
      if ($l =~ m{^(-{4,}|\.{4,}|/{4,}|\+{4,})$}) { $delim = $1; next; }
      next if $l =~ m{^//};
      if ($l =~ /^:leveloffset:\s*(\S+)/) { $leveloffset = $1; next; }
      if ($l =~ /^:(?:numbered|sectnums)!:/) { $numbered = 0; next; }
      if ($l =~ /^:(?:numbered|sectnums):/) { $numbered = 1; next; }
      if ($l =~ /^\[\[([^\],]+)(?:,[^\]]*)?\]\]\s*$/ || $l =~ /^\[#([\w:.-]+)[^\]]*\]\s*$/) {
        push @pending, $1; next;
      }
      if ($l =~ /^\[appendix\]\s*$/) { $is_appendix = 1; next; }
      if ($l =~ /^\[[^\]]*\]\s*$/) { $sections[$cur]{body} .= "$l\n" if $cur >= 0; next; }          # other block attributes keep @pending
      if ($l =~ /^(=+)\s+(\S.*?)\s*$/ && !($l =~ /^=+$/) && $boundary) {
        my $level = length($1) - 1 + $leveloffset;
        my $title = $2;
        if ($level <= 0) { @pending = (); $is_appendix = 0; next; }   # document title
        my $num = '';
        if ($level == 1 && $is_appendix) {
          $num = chr(ord('A') + $appendix++);
        } elsif ($level == 1 && $numbered) {
          $count[0] = ($count[0] // 0) + 1;
          @count = ($count[0]);
          $num = $count[0] + $doc->{sectnumoffset};
        } elsif ($level > 1 && @sections) {
          my $parent = $sections[-1];
          $parent = $parent->{parent} while $parent && $parent->{level} >= $level;
          if ($parent && $parent->{num} ne '') {
            $parent->{children}++;
            $num = "$parent->{num}." . $parent->{children};
          }
        }
        my $sec = { num => $num, level => $level, title => $title, file => "$doc->{dir}/$file",
                    line => $i + 1, body => '', children => 0 };
        # the parent: the last section of a lower level
        for (my $j = $#sections; $j >= 0; $j--) {
          if ($sections[$j]{level} < $level) { $sec->{parent} = $sections[$j]; last; }
        }
        if (@pending) {
          $sec->{id} = $pending[0];
          $sec->{explicit} = 1;
        } else {
          my $id = auto_id($title);
          if (exists $anchors{$id}) {
            my $n = 2;
            $n++ while exists $anchors{"${id}_$n"};
            $id = "${id}_$n";
          }
          $sec->{id} = $id;
          $sec->{explicit} = 0;
        }
        push @sections, $sec;
        $cur = $#sections;
        $anchors{$_} //= $cur for @pending;
        $anchors{$sec->{id}} //= $cur;
        @pending = ();
        $is_appendix = 0;
        next;
      }
      # anchors that do not name a section: block anchors and inline ones
      $anchors{$_} //= $cur for @pending;
      @pending = ();
      $anchors{$1} //= $cur while $l =~ /\[\[([A-Za-z_][\w:.-]*)(?:,[^\]]*)?\]\]/g;
      $anchors{$1} //= $cur while $l =~ /anchor:([A-Za-z_][\w:.-]*)\[/g;
      $sections[$cur]{body} .= "$l\n" if $cur >= 0;
    }
  }
  my %bynum;
  for my $k (0 .. $#sections) { $bynum{$sections[$k]{num}} = $k if $sections[$k]{num} ne ''; }
  return { sections => \@sections, anchors => \%anchors, bynum => \%bynum };
}

# Whether the section (index) lies inside the section numbered $num (or is it).
sub within {
  my ($idx, $k, $num) = @_;
  my $s = $idx->{sections}[$k];
  while ($s) {
    return 1 if $s->{num} eq $num;
    $s = $s->{parent};
  }
  return 0;
}

# The text of a section including its subsections.
sub text {
  my ($idx, $k) = @_;
  my $secs = $idx->{sections};
  my $t = "$secs->[$k]{title}\n$secs->[$k]{body}";
  for (my $j = $k + 1; $j < @$secs && $secs->[$j]{level} > $secs->[$k]{level}; $j++) {
    $t .= "$secs->[$j]{title}\n$secs->[$j]{body}";
  }
  return $t;
}

1;
