package org.fabricscope.model.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

class QuantityTest {
    private static BigDecimal v(String s) {
        return Quantity.parse(s).value();
    }

    @Test
    void suffixesAsKubernetesDefinesThem() {
        assertEquals(0, new BigDecimal("15.89").compareTo(v("15890m")));
        assertEquals(0, BigDecimal.valueOf(128290128L * 1024).compareTo(v("128290128Ki")));
        assertEquals(0, BigDecimal.valueOf(64L << 30).compareTo(v("64Gi")));
        assertEquals(0, BigDecimal.valueOf(256L << 20).compareTo(v("256Mi")));
        assertEquals(0, BigDecimal.valueOf(1L << 40).compareTo(v("1Ti")));
        assertEquals(0, BigDecimal.valueOf(1L << 50).compareTo(v("1Pi")));
        assertEquals(0, BigDecimal.valueOf(1L << 60).compareTo(v("1Ei")));
        assertEquals(0, BigDecimal.valueOf(1500).compareTo(v("1.5k")));
        assertEquals(0, BigDecimal.valueOf(2_000_000).compareTo(v("2M")));
        assertEquals(0, BigDecimal.valueOf(3_000_000_000L).compareTo(v("3G")));
        assertEquals(0, new BigDecimal("1e12").compareTo(v("1T")));
        assertEquals(0, new BigDecimal("1e15").compareTo(v("1P")));
        assertEquals(0, new BigDecimal("1e18").compareTo(v("1E")));
        assertEquals(0, new BigDecimal("0.000001").compareTo(v("1u")));
        assertEquals(0, new BigDecimal("0.000000005").compareTo(v("5n")));
        assertEquals(0, BigDecimal.valueOf(243149919035L).compareTo(v("243149919035")));
        assertEquals(0, BigDecimal.valueOf(1000).compareTo(v("1e3")));
        assertEquals(0, new BigDecimal("0.0012").compareTo(v("1.2E-3")));
        assertEquals(0, new BigDecimal("0.5").compareTo(v(".5")));
        assertEquals(0, new BigDecimal("-2").compareTo(v("-2")));
    }

    @Test
    void equalQuantitiesInOtherUnitsCompareEqual() {
        assertEquals(Quantity.parse("1Gi"), Quantity.parse("1024Mi"));
        assertEquals(Quantity.parse("1"), Quantity.parse("1000m"));
        assertTrue(Quantity.parse("256Mi").compareTo(Quantity.parse("1Gi")) < 0);
        assertEquals("1000m", Quantity.parse("1000m").text());
    }

    @Test
    void arithmeticAndDisplay() {
        assertEquals(Quantity.parse("4"), Quantity.parse("8").minus(Quantity.parse("4")));
        assertEquals(Quantity.parse("2Gi"), Quantity.parse("1Gi").plus(Quantity.parse("1024Mi")));
        assertEquals("4", Quantity.parse("4").display("nvidia.com/gpu"));
        assertEquals("64Gi", Quantity.parse("64Gi").display("memory"));
        assertEquals("15.89", Quantity.parse("15890m").display("cpu"));
    }

    @Test
    void rejectsWhatIsNotAQuantity() {
        for (String bad : new String[] {"", " ", "abc", "1Gb", "1 Gi", "1.2.3", "Gi", "0x10", "1e99", "1ki"}) {
            assertNull(Quantity.tryParse(bad), bad);
        }
        assertNull(Quantity.tryParse(null));
        assertThrows(IllegalArgumentException.class, () -> Quantity.parse("lots"));
    }
}
