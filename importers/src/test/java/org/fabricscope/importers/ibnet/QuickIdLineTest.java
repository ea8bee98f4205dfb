package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Id lines read without the regex give what the regex gives: the same node facts for the usual forms,
 * and the same diagnostics for the odd ones the quick path leaves to the regex.
 */
class QuickIdLineTest {
    private static FabricModel read(String idLines) {
        String dump = idLines + "\nSwitch\t2 \"S-0002c90300000001\"\t\t# \"leaf-1\" enhanced port 0 lid 5 lmc 0\n"
                + "[1]\t\"H-0002c90300000002\"[1](2c90300000003) \t\t# \"host-1 mlx5_0\" lid 6 4xHDR\n\n"
                + "vendid=0x2c9\ndevid=0x101b\nsysimgguid=0x2c90300000002\ncaguid=0x2c90300000002\n"
                + "Ca\t1 \"H-0002c90300000002\"\t\t# \"host-1 mlx5_0\"\n"
                + "[1](2c90300000003) \t\"S-0002c90300000001\"[1]\t\t# lid 6 lmc 0 \"leaf-1\" lid 5 4xHDR\n";
        return TestSupport.read(new IbnetdiscoverImporter(), dump);
    }

    private static List<String> problems(FabricModel r) {
        return r.diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void theUsualFormsGiveTheSwitchItsIds() {
        FabricModel r = read("vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x2c90300000001\nswitchguid=0x2c90300000001(2c90300000001)");
        var leaf = r.nodes().stream().filter(n -> n.displayName().equals("leaf-1")).findFirst().orElseThrow();
        assertEquals(0x2c9, leaf.vendorId());
        assertEquals(0xd2f0, leaf.deviceId());
        assertEquals(List.of(), problems(r).stream().filter(p -> p.contains("ERROR") || p.contains("WARNING")).toList());
    }

    @Test
    void oddFormsAreLeftToTheRegex() {
        // a comment, no 0x, an upper-case 0X, a digit of another script, a lone paren: each as the regex reads it
        FabricModel r = read("vendid=2c9 # Mellanox\ndevid=0XD2F0\nsysimgguid=0x2c9030000000\u0663\nswitchguid=0x2c90300000001(");
        var leaf = r.nodes().stream().filter(n -> n.displayName().equals("leaf-1")).findFirst().orElseThrow();
        assertEquals(0x2c9, leaf.vendorId(), "vendid=2c9 # comment: the regex takes it");
        List<String> p = problems(r);
        assertEquals(3, p.stream().filter(x -> x.contains("not ibnetdiscover output")).count(), String.join("\n", p));
    }
}
