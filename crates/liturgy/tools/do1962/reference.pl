#!/usr/bin/perl
# Reference table of the 1962 Roman Mass calendar ("Rubrics 1960 - 1960")
# computed by Divinum Officium's own Perl engine (web/cgi-bin/missa/*).
#
# Usage: perl reference.pl DO_CHECKOUT [FROM_YYYY-MM-DD [TO_YYYY-MM-DD]] > out.tsv
#   DO_CHECKOUT = a checkout of github.com/DivinumOfficium/divinum-officium
#   (defaults: 2025-01-01 .. 2030-12-31). Writes TSV with a header line to STDOUT.
#
# Approach: this driver loads DO's modules exactly as missa.pl does (same
# require list, same runtime options), then for every date forks a child
# (DO keeps per-request state in globals, so each date gets a pristine copy)
# which runs DO's precedence() and reads DO's own variables:
#   celebration + class  <- setheadline()  ("Title ~ I. classis"), as in the page head
#   colour               <- liturgical_color(headline)  (DO's display colour, see README)
#   commemorations       <- the "!Commemoratio ..." titles inside oratio('Latin','Oratio'),
#                           i.e. what the Collect of the Mass actually commemorates
#   epistle / gospel     <- the "!Book ch:v" line of getitem('Lectio'|'Evangelium'),
#                           i.e. what &lectio / &evangelium print; for "Full text" days
#                           (Good Friday, Holy Saturday) from the [Prelude] text.
#                           Citations and commemorations pass through DO's spell_var()
#                           as the Latin Mass text does (1960: J/j -> I/i, "Ioann");
#                           the celebration title comes from the page head, which DO
#                           does not respell ("S. Joannis ...").
#   masses               <- setmissanumber()'s rule: [Rule] "multipleN" / "celebranda aut .."
#   do_winner_file       <- $winner (after missa.pl's missanumber=1 substitution)
# Extra diagnostics (headline commemoration line $dayname[2]) go to STDERR.
use strict;
use warnings;
no warnings qw(once redefine uninitialized);
use utf8;

my ($DO, $FROM, $TO);

BEGIN {
  $DO = shift @ARGV or die "usage: $0 DO_CHECKOUT [FROM [TO]]\n";
  $DO =~ s{/+$}{};
  -f "$DO/web/cgi-bin/missa/missa.pl" or die "$DO does not look like a divinum-officium checkout\n";
  $FROM = shift @ARGV || '2025-01-01';
  $TO = shift @ARGV || '2030-12-31';
  unshift @INC, "$DO/web/cgi-bin";
}

package main;
use POSIX ();
use FindBin ();
use CGI;
use CGI::Cookie;
use File::Basename;
use IO::Handle;
use Time::Local qw(timegm);

# DO's files use $Bin (FindBin) as "the directory of the running CGI script".
BEGIN { $FindBin::Bin = "$DO/web/cgi-bin/missa"; *main::Bin = \$FindBin::Bin; }
use DivinumOfficium::Main qw(vernaculars liturgical_color);
use DivinumOfficium::LanguageTextTools
  qw(prayer translate load_languages_data omit_regexp suppress_alleluia process_inline_alleluias alleluia_ant ensure_single_alleluia ensure_double_alleluia);
use DivinumOfficium::RunTimeOptions qw(check_version check_language);
use DivinumOfficium::Lexicon qw(apply_interlinear);

our ($Bin, $q, $missa, $officium, $Ck, $NewMass, $error, $debug);
our ($version, $lang1, $lang2, $langfb, $column, $dioecesis, $votive, $testmode);
our ($missanumber, $rubrics, $solemn, $only, $command, $content, $Propers);
our ($winner, %winner, @dayname, $rule, $rank, $commemoratio, @commemoentries);

$error = '';
$debug = '';
$Ck = 0;
$missa = 1;
$NewMass = 0;
$officium = 'missa.pl';

# same require list as missa.pl
require "$Bin/../DivinumOfficium/SetupString.pl";
require "$Bin/../horas/horascommon.pl";
require "$Bin/../DivinumOfficium/dialogcommon.pl";
require "$Bin/../horas/webdia.pl";
require "$Bin/../DivinumOfficium/setup.pl";
require "$Bin/ordo.pl";
require "$Bin/propers.pl";

binmode(STDOUT, ':encoding(utf-8)');
binmode(STDERR, ':encoding(utf-8)');
$| = 1;

my $VERSION_NAME = 'Rubrics 1960 - 1960';

# ---- date helpers (independent of DO) ----
sub ymd_to_epoch { my ($y, $m, $d) = split /-/, shift; timegm(0, 0, 12, $d, $m - 1, $y) }

sub epoch_to_ymd {
  my @t = gmtime(shift);
  sprintf('%04d-%02d-%02d', $t[5] + 1900, $t[4] + 1, $t[3]);
}

# ---- citation helpers ----
# A citation line is a "!" line (not "!!") whose text is [1-4][.] Book ch:v / Book, ch. v
my $CIT = qr/^\s*!(?!!)\s*((?:[1-4]\.?\s*)?\p{L}[\p{L}\.]*,?\s*\d+\s*[:.,]\s*\d.*?)\s*$/;

sub first_citation {
  my $t = shift // '';
  for (split /\n/, $t) { return $1 if $_ =~ $CIT; }
  return '';
}

# Prelude of "Full text" days: lesson = citation after the last "Lectio" heading (or "!Lectio" rubric) line
# before the Gospel; gospel = citation after "Evangelii secundum" / "Passio".
sub prelude_citations {
  my $t = shift // '';
  my ($ep, $ev, $want) = ('', '', '');
  for (split /\n/, $t) {
    next if $_ =~ $CIT && !$want;
    if (/^\s*!?\s*L[ée]ctio\b/i && $_ !~ $CIT) { $want = 'ep'; next; }
    if (/(?:Evang[ée]lii\s+sec[úu]ndum|^\s*P[áa]ssio\s+D[óo]mini)/i) { $want = 'ev'; next; }
    if ($want && $_ =~ $CIT) {
      if ($want eq 'ep') { $ep = $1 unless $ev; }
      else { $ev ||= $1; }
      $want = '';
    }
  }
  return ($ep, $ev);
}

sub clean { my $s = shift // ''; $s =~ s/[\t\r\n]+/ /g; $s =~ s/^\s+|\s+$//g; $s }

sub one_day {
  my $iso = shift;
  my ($y, $m, $d) = split /-/, $iso;
  my $date = sprintf('%02d-%02d-%04d', $m, $d, $y);    # DO's MM-DD-YYYY

  # ---- the start of missa.pl, with our parameters ----
  $q = CGI->new({
    date => $date, version => $VERSION_NAME, lang1 => 'Latin', lang2 => 'English',
    command => 'praySanctaMissa', missanumber => 1
  });
  getini('missa');
  $missanumber = strictparam('missanumber') || 1;
  loadsetup('');
  set_runtime_options('general');
  set_runtime_options('parameters');
  $version = check_version($version, $missa) || die "unknown version";
  $version eq $VERSION_NAME or die "version resolved to '$version'";
  $lang1 = check_language($lang1) || 'Latin';
  $lang2 = check_language($lang2) || 'English';
  $langfb = check_language($langfb) || 'English';
  $testmode = 'regular';
  $rubrics = '';
  $solemn = '';
  $command = 'SanctaMissa';
  $content = 0;
  $only = 0;

  precedence($date);
  setsecondcol();
  load_languages_data($lang1, $lang2, $langfb, $version, $missa);
  $column = 1;

  # headline and class
  my $headline = setheadline();
  my ($title, $rankname) = split(/\s*~\s*/, $headline, 2);
  my $colour = liturgical_color($headline);
  my $class = $rankname;
  $class = $1 if $rankname =~ /\b(I{1,3}|IV)\.\s*classis/i;

  # number of Masses (same test as missa.pl's setmissanumber)
  my $masses = 1;
  if ($winner{Rule} =~ /(multiple|celebranda aut\s+)(.*)/) {
    my $o = $2;
    $masses = ($o =~ /([0-9]+)/) ? $1 : scalar(split /\baut\s+/i, $o);
  }

  # readings
  my ($ep, $ev);
  my $fulltext = ($rule =~ /Full text/i) ? 1 : 0;
  if ($fulltext) {
    ($ep, $ev) = prelude_citations($winner{Prelude});
  } else {
    $ep = first_citation(getitem('Lectio', 'Latin'));
    $ev = first_citation(getitem('Evangelium', 'Latin'));
  }

  # commemorations: raw text of the Collect before HTML formatting
  my @comm;
  {
    local *main::resolve_refs = sub { $_[0] };
    our @s = ();
    my $or = $fulltext ? '' : oratio('Latin', 'Oratio');
    for (split /\n/, $or) {
      push @comm, clean($1) if /^\s*!\s*Commemoratio\s+(.*)$/;
    }
  }

  # The Mass text is shown through webdia.pl's spell_var() (1960: j -> i), the page
  # head is not: apply it to what comes from the text (citations, commemorations).
  @comm = map { spell_var($_) } @comm;
  ($ep, $ev) = map { spell_var($_) } ($ep, $ev);

  (my $wf = $winner) =~ s/\.txt$//;
  my @row = (
    $iso, clean($title), clean($class), $colour, join(' | ', @comm),
    clean($ep), clean($ev), $masses, $wf
  );
  print join("\t", @row), "\n";
  print STDERR join("\t", $iso, "dayname2=" . clean($dayname[2]), "rankname=$rankname",
    "rule=" . clean($rule)), "\n";
}

# Cross-check only (STDERR): DO's Divine Office winner for the same day, computed
# the way horas/kalendar/ordo.pl (the Ordo page) does it: occurrence() with $missa = 0
# on the horas data folder.
sub office_day {
  my $iso = shift;
  my ($y, $m, $d) = split /-/, $iso;
  require "$Bin/../horas/specmatins.pl";    # as kalendar.pl (initiarule)
  $q = CGI->new({version => $VERSION_NAME});
  our ($datafolder, $dayofweek, $C10, $hora, $day, $month, $year);
  ($day, $month, $year) = ($d + 0, $m + 0, $y);
  $missa = 0;
  $version = $VERSION_NAME;
  $lang1 = 'Latin';
  $dioecesis = 'Generale';
  $datafolder = "$DO/web/www/horas";
  $dayofweek = day_of_week($d + 0, $m + 0, $y);
  @dayname = (getweek($d + 0, $m + 0, $y, 0, 0), '', '');
  $C10 = 'C10';
  occurrence($d + 0, $m + 0, $y, $version, $dioecesis, 0);
  (my $wf = $winner) =~ s/\.txt$//;
  my %w = %{officestring('Latin', $winner, 0)};
  my $t = $w{Rank} =~ s/;;.*//sr;
  print STDERR join("\t", $iso, "office_winner=$wf", "office_title=" . clean($t),
    "office_dayname2=" . clean($dayname[2])), "\n";
}

sub in_child {
  my ($code, $iso) = @_;
  my $pid = fork() // die "fork: $!";
  if ($pid == 0) {
    $code->($iso);
    STDOUT->flush;
    STDERR->flush;
    POSIX::_exit(0);
  }
  waitpid($pid, 0);
  die "child for $iso failed (status $?)\n" if $?;
}

my $OFFICE_CHECK = $ENV{DO_OFFICE_CHECK} ? 1 : 0;

print join("\t", qw(date celebration class colour commemorations epistle gospel masses do_winner_file)), "\n";

for (my $t = ymd_to_epoch($FROM); $t <= ymd_to_epoch($TO); $t += 86400) {
  my $iso = epoch_to_ymd($t);
  in_child(\&one_day, $iso);
  in_child(\&office_day, $iso) if $OFFICE_CHECK;
}
