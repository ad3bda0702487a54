package dev.kruisevertx.sidecarset;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The expressions of a SidecarSet {@code resourcesPolicy} ({@code max(cpu*50%, 50m)}), evaluated with the
 * semantics of OpenKruise v1.9's resource calculator: numbers ({@code 2}, {@code 0.5}, {@code 1e3}, {@code 50%} =
 * 0.5), quantities ({@code 100m}, {@code 512Mi}; suffixes m k M G T P Ki Mi Gi Ti Pi), one variable, {@code + - * /},
 * unary minus, parentheses, {@code max(a, b)} and {@code min(a, b)}. A quantity times or divided by a number works
 * on its milli value truncated as Go's {@code int64(float64)} does; adding a number to a quantity reads the number
 * as cores (milli units); two quantities cannot be multiplied, nothing can be divided by a quantity; a negative
 * result is an error. Stricter than OpenKruise (which reads them as 0): a number with an unknown unit ({@code 5n},
 * {@code 100mx}, {@code 2e}) and a value that does not fit Go's int64 milli units are errors.
 *
 * <p>The parser is a recursive descent over OpenKruise's grammar (left-associative {@code + -} below
 * {@code * /}); its work is linear in the expression, which validation bounds in length.
 */
public final class ResourceExpression {
    /** Longest expression accepted (OpenKruise has no limit; a longer one is surely not a resources formula). */
    public static final int MAX_LENGTH = 1024;
    private static final int MAX_DEPTH = 64;
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final List<String> UNITS = List.of("m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi");

    /** A value of the calculator: a plain number, or a Kubernetes quantity with the format Go prints it in. */
    public sealed interface Value permits Number, Quantity {
    }

    public record Number(double value) implements Value {
    }

    /** {@code format} null is Go's zero {@code Quantity{}} (what a missing resource reads as). */
    public record Quantity(BigDecimal value, GoQuantity.Format format) implements Value {
        public static Quantity parse(String text) {
            GoQuantity.Amount a = GoQuantity.parseAmount(text);
            if (a == null) {
                throw new IllegalArgumentException("invalid quantity " + text);
            }
            return new Quantity(a.value(), a.format());
        }

        public static Quantity zero() {
            return new Quantity(BigDecimal.ZERO, null);
        }

        /** Go's {@code Quantity.String()}. */
        @Override
        public String toString() {
            return GoQuantity.format(value, format);
        }

        boolean isZero() {
            return value.signum() == 0;
        }

        long milliValue() {
            BigDecimal milli = value.movePointRight(3).setScale(0, RoundingMode.UP);
            try {
                return milli.longValueExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("value out of range: " + this);
            }
        }

        Quantity withMilli(long milli) {
            return new Quantity(BigDecimal.valueOf(milli, 3), format);
        }

        Quantity negate() {
            return new Quantity(value.negate(), format);
        }

        /** Go's {@code Add}: a zero receiver takes the other's format. */
        Quantity add(Quantity y) {
            return new Quantity(value.add(y.value), isZero() ? y.format : format);
        }
    }

    private ResourceExpression() {
    }

    /**
     * Evaluates {@code expr} with its variables (names lower case).
     *
     * @throws IllegalArgumentException what is wrong with the expression, e.g. {@code undefined variable: mem}
     */
    public static Value evaluate(String expr, Map<String, Value> variables) {
        if (expr.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("expression longer than " + MAX_LENGTH + " characters");
        }
        Parser p = new Parser(expr, variables);
        Value v = p.expression(0);
        if (p.peekKind() != Kind.EOF) {
            throw p.syntaxError();
        }
        if (v instanceof Quantity q && q.value.signum() < 0) {
            throw new IllegalArgumentException("calculation result is negative: " + q);
        }
        if (v instanceof Number n && n.value < 0) {
            throw new IllegalArgumentException("calculation result is negative: " + goFloat(n.value));
        }
        return v;
    }

    /**
     * OpenKruise's {@code evaluateResourceExpression}: the expression over the aggregated value of the target
     * containers, bound to {@code memory} when the expression names it and to {@code cpu} otherwise; a number
     * result becomes milli cores for {@code cpu} and whole units for {@code memory}. An empty expression is no
     * limit (null) or a zero request.
     */
    public static Quantity resource(String expr, Quantity aggregated, boolean limit) {
        if (expr == null || expr.isEmpty()) {
            return limit ? null : new Quantity(BigDecimal.ZERO, GoQuantity.Format.DECIMAL_SI);
        }
        String variable = java.util.regex.Pattern.compile("\\bmemory\\b").matcher(expr).find() ? "memory" : "cpu";
        Value v = evaluate(expr, Map.of(variable, aggregated));
        if (v instanceof Quantity q) {
            return q;
        }
        double n = ((Number) v).value;
        return variable.equals("cpu")
                ? new Quantity(BigDecimal.valueOf(toInt64(n * 1000), 3), GoQuantity.Format.DECIMAL_SI)
                : new Quantity(BigDecimal.valueOf(toInt64(n)), GoQuantity.Format.DECIMAL_SI);
    }

    /**
     * What SidecarSet validation checks (OpenKruise: the expression evaluated with its variable as the number 1),
     * plus, stricter, the errors of kind that no container's value could avoid: a product of two quantities and a
     * division by a quantity, which OpenKruise accepts and then fails every pod creation with.
     *
     * @return null when valid, else the problem
     */
    public static String problem(String expr, String variable) {
        if (expr == null || expr.isEmpty()) {
            return null;
        }
        try {
            evaluate(expr, Map.of(variable, new Number(1.0)));
        } catch (IllegalArgumentException e) {
            String other = variable.equals("cpu") ? "memory" : "cpu";
            return e.getMessage().equals("undefined variable: " + other)
                    ? "unknown variable " + other + " (only " + variable + ")" : e.getMessage();
        }
        try {
            evaluate(expr, Map.of(variable, new Quantity(BigDecimal.ONE, GoQuantity.Format.DECIMAL_SI)));
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            if (m.startsWith("multiplication of two quantities") || m.startsWith("division by quantity")) {
                return m + " (with " + variable + " as a quantity, as at pod creation)";
            }
        }
        return null;
    }

    private static long toInt64(double d) {
        if (!Double.isFinite(d) || d >= 0x1p63 || d < -0x1p63) {
            throw new IllegalArgumentException("value out of range: " + goFloat(d / 1000));
        }
        return (long) d;
    }

    private static String goFloat(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e21 ? Long.toString((long) d) : Double.toString(d);
    }

    private enum Kind { NUMBER, QUANTITY, IDENT, PUNCT, EOF }

    private record Token(Kind kind, String text, int position) {
    }

    /** OpenKruise's lexer and grammar, evaluating as it parses. */
    private static final class Parser {
        private final String in;
        private final Map<String, Value> variables;
        private int pos;
        private Token ahead;

        Parser(String in, Map<String, Value> variables) {
            this.in = in;
            this.variables = variables;
        }

        Kind peekKind() {
            return peek().kind;
        }

        Token peek() {
            if (ahead == null) {
                ahead = lex();
            }
            return ahead;
        }

        Token next() {
            Token t = peek();
            ahead = null;
            return t;
        }

        boolean punct(char c) {
            Token t = peek();
            return t.kind == Kind.PUNCT && t.text.charAt(0) == c;
        }

        IllegalArgumentException syntaxError() {
            Token t = peek();
            return new IllegalArgumentException("parse error: syntax error at position " + (t.position + 1)
                    + (t.kind == Kind.EOF ? " (unexpected end)" : " (unexpected \"" + t.text + "\")"));
        }

        Value expression(int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("expression nested deeper than " + MAX_DEPTH);
            }
            Value left = term(depth);
            while (punct('+') || punct('-')) {
                char op = next().text.charAt(0);
                Value right = term(depth);
                left = op == '+' ? add(left, right) : add(left, negate(right));
            }
            return left;
        }

        Value term(int depth) {
            Value left = factor(depth);
            while (punct('*') || punct('/')) {
                char op = next().text.charAt(0);
                Value right = factor(depth);
                left = op == '*' ? mul(left, right) : div(left, right);
            }
            return left;
        }

        Value factor(int depth) {
            Token t = next();
            switch (t.kind) {
                case NUMBER:
                    return new Number(number(t.text));
                case QUANTITY:
                    return Quantity.parse(t.text);
                case IDENT:
                    if (punct('(')) {
                        next();
                        Value a = expression(depth + 1);
                        Value b = null;
                        if (punct(',')) {
                            next();
                            b = expression(depth + 1);
                        }
                        if (!punct(')')) {
                            throw syntaxError();
                        }
                        next();
                        return call(t.text, b == null ? List.of(a) : List.of(a, b));
                    }
                    Value v = variables.get(t.text.toLowerCase(Locale.ROOT));
                    if (v == null) {
                        throw new IllegalArgumentException("undefined variable: " + t.text.toLowerCase(Locale.ROOT));
                    }
                    return v;
                case PUNCT:
                    if (t.text.equals("(")) {
                        Value inner = expression(depth + 1);
                        if (!punct(')')) {
                            throw syntaxError();
                        }
                        next();
                        return inner;
                    }
                    if (t.text.equals("-")) {
                        if (depth > MAX_DEPTH) {
                            throw new IllegalArgumentException("expression nested deeper than " + MAX_DEPTH);
                        }
                        return negate(factor(depth + 1));
                    }
                    ahead = t;
                    throw syntaxError();
                default:
                    ahead = t;
                    throw syntaxError();
            }
        }

        private Token lex() {
            while (pos < in.length() && Character.isWhitespace(in.charAt(pos))) {
                pos++;
            }
            int start = pos;
            if (pos >= in.length()) {
                return new Token(Kind.EOF, "", start);
            }
            char c = in.charAt(pos);
            if ("+-*/(),".indexOf(c) >= 0) {
                pos++;
                return new Token(Kind.PUNCT, String.valueOf(c), start);
            }
            if (c == '.' || isDigit(c)) {
                String n = readNumber();
                return new Token(isQuantity(n) ? Kind.QUANTITY : Kind.NUMBER, n, start);
            }
            if (Character.isLetter(c)) {
                while (pos < in.length() && (Character.isLetterOrDigit(in.charAt(pos)) || in.charAt(pos) == '_')) {
                    pos++;
                }
                return new Token(Kind.IDENT, in.substring(start, pos), start);
            }
            pos++;
            return new Token(Kind.PUNCT, String.valueOf(c), start);
        }

        /** OpenKruise's readNumber: digits, one dot, an exponent with its sign, a percent, then a unit's letters. */
        private String readNumber() {
            int start = pos;
            boolean dot = false;
            boolean exp = false;
            boolean percent = false;
            boolean expectExponentDigit = false;
            while (pos < in.length()) {
                char r = in.charAt(pos);
                if (isDigit(r)) {
                    expectExponentDigit = false;
                    pos++;
                } else if (r == '.') {
                    if (dot || exp || percent) {
                        break;
                    }
                    dot = true;
                    pos++;
                } else if (r == 'e' || r == 'E') {
                    if (exp || percent) {
                        break;
                    }
                    exp = true;
                    expectExponentDigit = true;
                    pos++;
                } else if (r == '+' || r == '-') {
                    if (!expectExponentDigit) {
                        break;
                    }
                    expectExponentDigit = false;
                    pos++;
                } else if (r == '%') {
                    if (percent) {
                        break;
                    }
                    percent = true;
                    pos++;
                } else {
                    if (Character.isLetter(r) && !expectExponentDigit) {
                        while (pos < in.length() && Character.isLetter(in.charAt(pos))) {
                            pos++;
                        }
                    }
                    break;
                }
            }
            return in.substring(start, pos);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isQuantity(String s) {
            int numEnd = 0;
            for (int i = 0; i < s.length(); i++) {
                char r = s.charAt(i);
                if (!isDigit(r) && r != '.' && r != 'e' && r != 'E' && r != '+' && r != '-') {
                    numEnd = i;
                    break;
                }
            }
            return numEnd != 0 && UNITS.contains(s.substring(numEnd));
        }

        private static double number(String s) {
            boolean percent = s.endsWith("%");
            String digits = percent ? s.substring(0, s.length() - 1) : s;
            double d;
            try {
                if (digits.isEmpty() || !digits.chars().allMatch(ch -> isDigit((char) ch) || ".eE+-".indexOf(ch) >= 0)) {
                    throw new NumberFormatException();
                }
                d = Double.parseDouble(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid number " + s);
            }
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("number out of range: " + s);
            }
            return percent ? d / 100 : d;
        }
    }

    private static Quantity toQuantity(Value v) {
        return v instanceof Quantity q ? q : new Quantity(BigDecimal.valueOf(toInt64(((Number) v).value * 1000), 3),
                GoQuantity.Format.DECIMAL_SI);
    }

    private static Value add(Value l, Value r) {
        if (l instanceof Quantity || r instanceof Quantity) {
            return toQuantity(l).add(toQuantity(r));
        }
        return finite(((Number) l).value + ((Number) r).value);
    }

    private static Value negate(Value v) {
        return v instanceof Quantity q ? q.negate() : new Number(-((Number) v).value);
    }

    private static Value mul(Value l, Value r) {
        if (l instanceof Quantity && r instanceof Quantity) {
            throw new IllegalArgumentException("multiplication of two quantities");
        }
        if (l instanceof Quantity q) {
            return q.withMilli(toInt64(q.milliValue() * ((Number) r).value));
        }
        if (r instanceof Quantity q) {
            return q.withMilli(toInt64(q.milliValue() * ((Number) l).value));
        }
        return finite(((Number) l).value * ((Number) r).value);
    }

    private static Value div(Value l, Value r) {
        if (r instanceof Quantity) {
            throw new IllegalArgumentException("division by quantity");
        }
        double d = ((Number) r).value;
        if (d == 0) {
            throw new IllegalArgumentException("division by zero");
        }
        if (l instanceof Quantity q) {
            return q.withMilli(toInt64(q.milliValue() / d));
        }
        return finite(((Number) l).value / d);
    }

    private static Number finite(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("value out of range");
        }
        return new Number(d);
    }

    private static Value call(String name, List<Value> args) {
        String fn = name.toLowerCase(Locale.ROOT);
        if (!fn.equals("max") && !fn.equals("min")) {
            throw new IllegalArgumentException("unknown function: " + name);
        }
        if (args.size() != 2) {
            throw new IllegalArgumentException(fn + " function requires exactly 2 arguments, got " + args.size());
        }
        Value a = args.get(0);
        Value b = args.get(1);
        boolean max = fn.equals("max");
        if (a instanceof Number x && b instanceof Number y) {
            return max ? (x.value >= y.value ? x : y) : (x.value <= y.value ? x : y);
        }
        Quantity x = toQuantity(a);
        Quantity y = toQuantity(b);
        int cmp = x.value.compareTo(y.value);
        return max ? (cmp >= 0 ? x : y) : (cmp <= 0 ? x : y);
    }
}
